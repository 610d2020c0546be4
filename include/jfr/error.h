/* jfr/error.h - status codes and the error record of libjfr. */
#ifndef JFR_ERROR_H
#define JFR_ERROR_H

#include "common.h"

JFR_BEGIN_DECLS

/**
 * Status codes. Functions that can fail return an int: JFR_OK (0), JFR_DONE
 * (1, end of an iteration, not an error), JFR_AGAIN (2, nothing new yet,
 * not an error) or one of the negative codes.
 * Test for failure with `rc < 0`.
 */
typedef enum jfr_status {
    JFR_OK = 0,
    JFR_DONE = 1,
    JFR_AGAIN = 2,       /**< nothing new yet (jfr_follow_poll): not an error */
    JFR_EINVAL = -1,     /**< API misuse: a NULL or out-of-range argument */
    JFR_ENOMEM = -2,     /**< an allocation failed */
    JFR_EIO = -3,        /**< reading the input failed (see sys_errno) */
    JFR_EFORMAT = -4,    /**< not a recording (bad magic, unknown container) */
    JFR_EVERSION = -5,   /**< a recording in a version we cannot read (0.9) */
    JFR_ECORRUPT = -6,   /**< malformed data inside a chunk */
    JFR_ETRUNCATED = -7, /**< the input ends inside a chunk */
    JFR_ELIMIT = -8,     /**< a size or depth exceeds a configured limit */
    JFR_ENOTFOUND = -9   /**< a name or key that is not there */
} jfr_status;

/** Size of jfr_error.message, including the terminating NUL. */
#define JFR_ERROR_MESSAGE_SIZE 160

/** Where jfr_error_text puts the chunk's location in the sentence. */
typedef enum jfr_error_place {
    /** "chunk N, offset M: message" */
    JFR_PLACE_FIELDS = 0,
    /** "chunk N: message": the message names the offsets it is about */
    JFR_PLACE_CHUNK,
    /** "chunk N message": the message goes on from the chunk as subject
     * ("at offset 0 is cut (...)", "was not closed (...)") */
    JFR_PLACE_SUBJECT
} jfr_error_place;

/**
 * Detail of the last failure. `offset` is the absolute byte offset in the
 * (decompressed) input of the failing read, `chunk` the 0-based chunk index
 * or -1 when the failure is not inside a chunk. The location lives in these
 * fields only, never in `message`; jfr_error_text puts them together as
 * jfrtool prints them. Filling it never allocates.
 */
typedef struct jfr_error {
    int code;
    int sys_errno;
    int64_t chunk;
    uint64_t offset;
    char message[JFR_ERROR_MESSAGE_SIZE];
    jfr_error_place place; /**< how jfr_error_text joins chunk and message */
    /** libjfr's: fields a later version adds take their place, so the
     * size (256 bytes) stays. Never read it. */
    uint64_t reserved_[8];
} jfr_error;

/** Static English description of a status code ("corrupt data", ...). */
JFR_API const char *jfr_strerror(int code);

/**
 * The error as one line: the message, after the location when `chunk` >= 0
 * ("chunk 3, offset 1234: what", or as `place` says), into `out` (NUL
 * terminated, cut to `size`). A program prefixes the file's name.
 * @return the length of the whole line (as snprintf), or -1 for a NULL
 *         `err`.
 */
JFR_API int jfr_error_text(char *out, size_t size, const jfr_error *err);

JFR_END_DECLS

#endif
