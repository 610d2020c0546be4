/* cmd_repair.c - jfrtool repair: placeholder. */
#include "jfrtool.h"

const char usage_repair[] = "Usage: jfrtool repair IN OUT\n";

int cmd_repair(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return EXIT_USAGE;
}
