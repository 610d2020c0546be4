/* jfr/identity.h - when two values are the same thread, class, class
 * loader, method or event type.
 *
 * A JVM names a thread, a class, a class loader and a method in its
 * recordings by a constant-pool key that it keeps for as long as the thing
 * lives, and an event type by its id: within the chunks of one JVM run,
 * equal keys are one thing, and two things of one name (two unnamed virtual
 * threads, two instances of one class loader, a class that two loaders
 * define, a bridge method beside its target, an event class registered
 * twice) have different keys. The JDK's tools group by that identity (its
 * views key a method by its class's key, its name and its descriptor).
 *
 * Keys of different runs mean nothing to each other. Across runs, things
 * are matched by name instead, in the order they are first met: the k-th
 * thread of a name met in one run is the k-th thread of that name in
 * another, so that rows over several recordings of one program add up by
 * name while the things one run tells apart stay apart.
 *
 * A run is a sequence of chunks each of which continues the one before
 * (jfr_header_continues), over all inputs in reading order; the caller
 * counts runs and passes the number with each value. A jfr_identity
 * numbers the groups (from 0, in the order they are first met), and the
 * same object must see every value whose group is to be compared.
 */
#ifndef JFR_IDENTITY_H
#define JFR_IDENTITY_H

#include "chunk.h"
#include "common.h"
#include "options.h"
#include "types.h"
#include "value.h"

JFR_BEGIN_DECLS

/**
 * Whether chunk `next`, read right after chunk `prev`, continues the JVM
 * run of `prev`: the JVM starts a new chunk where it ends the last one, so
 * `next` starts at `prev`'s end to the nanosecond, with the same tick rate.
 * Chunks of different JVMs (concatenated recordings, the chunk a profiler
 * writes beside the JVM's own) do not. Pool keys of threads, classes,
 * class loaders and methods, and event type ids, name the same things in
 * the chunks of one run (jfr-format.md §8.3).
 */
JFR_API bool jfr_header_continues(const jfr_header *prev, const jfr_header *next);

/** Groups of values by identity. Opaque; one thread at a time. */
typedef struct jfr_identity jfr_identity;

/**
 * A new, empty set of groups, allocating through `allocator` (NULL:
 * malloc/realloc/free). Free with jfr_identity_free.
 * @return JFR_OK, JFR_EINVAL (out NULL) or JFR_ENOMEM.
 */
JFR_API int jfr_identity_new(jfr_identity **out, const jfr_allocator *allocator);

/** Free the groups; NULL is allowed. */
JFR_API void jfr_identity_free(jfr_identity *ids);

/**
 * The group of `v`, a value read from a chunk of run `run`: a thread
 * (java.lang.Thread), a class (java.lang.Class), a class loader
 * (jdk.types.ClassLoader), a method (jdk.types.Method) or a stack frame
 * (jdk.types.StackFrame: its method); JFR 1.0's com.oracle.jfr.types
 * names count as the jdk.types ones.
 *
 * In one run, values are one group when they are one thing: the same pool
 * key (a method: its class's key, its name and its descriptor). A value
 * that was not read through a pool key is known by its name alone. The
 * name that matches things across runs is, for a thread, its Java name and
 * its OS name; for a class, its name and its class loader's name; for a
 * class loader, its class's name and its own name; for a method, its
 * class's, its own name and its descriptor.
 *
 * @return JFR_OK; JFR_EINVAL when `v` is null or of another type;
 *         JFR_ENOMEM, JFR_ELIMIT (more than 2^32 things); a negative code
 *         when the names could not be read (detail in the recording's
 *         error).
 */
JFR_API int jfr_identity_group(uint64_t *group, jfr_identity *ids, uint64_t run,
                               const jfr_value *v);

/**
 * The group of event type `type`, declared by a chunk of run `run`: types
 * of one run are one group when they have one id, and are matched across
 * runs by name. An event class that a JVM registers three times (three
 * ids, one name) is three groups, as the JDK's `jfr summary` lists it.
 * @return JFR_OK, JFR_EINVAL (NULL arguments), JFR_ENOMEM or JFR_ELIMIT.
 */
JFR_API int jfr_identity_type_group(uint64_t *group, jfr_identity *ids, uint64_t run,
                                    const jfr_type *type);

/** The number of groups so far: they are numbered from 0 to this minus 1. */
JFR_API size_t jfr_identity_count(const jfr_identity *ids);

/**
 * Take into `ids` the values `part` met, as if `ids` had met them in run
 * `run` in the order `part` met them: the way to number values read in
 * other threads, one jfr_identity per chunk (all of its values given run
 * 0), merged in chunk order. map[g] gets the group in `ids` of group g of
 * `part` (`map` holds jfr_identity_count(part) entries).
 * @return JFR_OK; JFR_EINVAL (NULL arguments, `part` is `ids`, or `part`
 *         met values of a run other than 0); JFR_ENOMEM or JFR_ELIMIT.
 */
JFR_API int jfr_identity_merge(uint64_t *map, jfr_identity *ids, uint64_t run,
                               const jfr_identity *part);

JFR_END_DECLS

#endif
