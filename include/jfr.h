/* jfr.h - libjfr, a reader and writer of JDK Flight Recorder recordings.
 *
 * Include this header only; it includes the others. See libjfr(3).
 */
#ifndef JFR_H
#define JFR_H

#include "jfr/common.h"
#include "jfr/version.h"
#include "jfr/error.h"
#include "jfr/options.h"
#include "jfr/recording.h"
#include "jfr/chunk.h"
#include "jfr/types.h"
#include "jfr/typefilter.h"
#include "jfr/value.h"
#include "jfr/event.h"
#include "jfr/stack.h"
#include "jfr/names.h"
#include "jfr/text.h"
#include "jfr/identity.h"
#include "jfr/profile.h"
#include "jfr/leaks.h"
#include "jfr/findings.h"
#include "jfr/rate.h"
#include "jfr/timeline.h"
#include "jfr/report.h"
#include "jfr/writer.h"
#include "jfr/follow.h"
#include "jfr/assemble.h"

#endif
