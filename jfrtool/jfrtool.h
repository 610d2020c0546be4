/* jfrtool.h - the subcommand table and what commands share. */
#ifndef JFRTOOL_H
#define JFRTOOL_H

#include <stdio.h>

#include <jfr.h>

/* Exit status (design.md §3). */
#define EXIT_OK      0
#define EXIT_USAGE   1
#define EXIT_INPUT   2
/* jfrtool rules: a rule fired a warning (repair gives 3 a meaning of its own,
 * EXIT_DROPPED; doc/jfrtool.1, EXIT STATUS) */
#define EXIT_WARNING 3

/** One subcommand: name, entry point, one-line summary, usage text. */
typedef struct jfrtool_cmd {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *usage;
} jfrtool_cmd;

int cmd_summary(int argc, char **argv);
int cmd_metadata(int argc, char **argv);
int cmd_print(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_folded(int argc, char **argv);
int cmd_flame(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_leaks(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_scrub(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_disassemble(int argc, char **argv);
int cmd_assemble(int argc, char **argv);

extern const char usage_summary[];
extern const char usage_metadata[];
extern const char usage_print[];
extern const char usage_view[];
extern const char usage_folded[];
extern const char usage_flame[];
extern const char usage_diff[];
extern const char usage_leaks[];
extern const char usage_sql[];
extern const char usage_report[];
extern const char usage_rules[];
extern const char usage_scrub[];
extern const char usage_repair[];
extern const char usage_top[];
extern const char usage_disassemble[];
extern const char usage_assemble[];

/** Print a command's usage to `out`. */
void jfrtool_usage(FILE *out, const char *cmd);

#endif
