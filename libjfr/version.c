/* version.c - run-time version and features. */
#include "config.h"

#include "jfr_private.h"

const char *jfr_version_string(void)
{
    return JFR_VERSION_STRING;
}

unsigned jfr_version_number(void)
{
    return JFR_VERSION_NUMBER;
}

unsigned jfr_features(void)
{
    unsigned f = 0;
#ifdef HAVE_ZLIB
    f |= JFR_FEATURE_GZIP;
#endif
#ifdef HAVE_LZ4
    f |= JFR_FEATURE_LZ4;
#endif
#ifdef HAVE_XZ
    f |= JFR_FEATURE_XZ;
#endif
#ifdef HAVE_BZIP2
    f |= JFR_FEATURE_BZIP2;
#endif
    return f;
}
