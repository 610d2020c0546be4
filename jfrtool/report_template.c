/* generated from jfrtool/report.html by Makefile.am; do not edit */
#include <stddef.h>
extern const unsigned char report_template[];
extern const size_t report_template_size;
const unsigned char report_template[] = {
60,115,99,114,105,112,116,62,10,47,42,64,64,82,69,80,
79,82,84,95,68,65,84,65,64,64,42,47,10,60,47,115,
99,114,105,112,116,62,10,
0};
const size_t report_template_size = sizeof report_template - 1;
