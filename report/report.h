/* report/report.h - comparison reports (being written). */
#ifndef BS_REPORT_REPORT_H
#define BS_REPORT_REPORT_H
#endif
