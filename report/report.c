/* report/report.c - placeholder until the report module lands. */
#include "report/report.h"
