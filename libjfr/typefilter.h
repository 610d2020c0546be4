/* typefilter.h - what the modules of jfr/typefilter.h share: matching one
 * filter item against a name and its categories (typefilter.c), the set's
 * nearest names (typeset.c) and the edit distance (nearest.c). */
#ifndef JFRP_TYPEFILTER_H
#define JFRP_TYPEFILTER_H

#include "jfr_private.h"

/** Most categories of one type kept (the JDK's have up to four). */
#define JFRP_MAX_CATEGORIES 16

/** Whether `text` matches glob `pattern` ('*' any run, '?' one UTF-8
 * character), byte for byte or, with `fold`, with ASCII case ignored. */
bool jfrp_glob_match(const char *pattern, const char *text, bool fold);

/** Whether `s` has a '*' or a '?'. */
bool jfrp_is_glob(const char *s);

/** The name after JFR 1.0's "com.oracle." ("com.oracle.jdk.X" -> "jdk.X"),
 * or `name` itself. */
const char *jfrp_canonical_type_name(const char *name);

/** The part after the last '.', or `name` when it has none. */
const char *jfrp_short_type_name(const char *name);

/** The @Category elements of `type` (at most JFRP_MAX_CATEGORIES) into
 * `out`; their number. Borrowed from the type's chunk. */
size_t jfrp_type_categories(const jfr_type *type, const char **out);

/**
 * Whether filter item `item` selects an event type named `raw` (as
 * declared; its canonical name is matched too) with categories `cats`.
 */
bool jfrp_item_selects(const char *item, jfr_filter_by by, const char *raw,
                       const char *const *cats, size_t ncats);

/** Whether `item`, a full or short name (not a glob), names an event type
 * some JDK records (jdk_event_types.c): never a typo, so a filter item
 * naming one that no input declares is no error. */
bool jfrp_jdk_event_type(const char *item);

/** Append `s` to the message being made in `msg` (`size` bytes, always
 * NUL-terminated) if all of it fits; false when it does not. */
bool jfrp_msg_append(char *msg, size_t size, const char *s);

#endif
