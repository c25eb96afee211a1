/* store/store.c - being written. */
#include "store/store.h"
