/* ingest/ingest.c - being written. */
#include "ingest/ingest.h"
