/*
 * util/banned.h - functions bstore does not use: unbounded copies,
 * locale- or state-dependent parsing. Including this header turns a use
 * into a compile error. Every .c file includes it after all other
 * headers (system headers declare these names).
 */
#ifndef BS_UTIL_BANNED_H
#define BS_UTIL_BANNED_H

#define BS_BANNED(f) sorry_##f##_is_banned_in_bstore

#undef strcpy
#define strcpy(...) BS_BANNED(strcpy)
#undef strcat
#define strcat(...) BS_BANNED(strcat)
#undef sprintf
#define sprintf(...) BS_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BS_BANNED(vsprintf)
#undef strtok
#define strtok(...) BS_BANNED(strtok)
#undef atoi
#define atoi(...) BS_BANNED(atoi)
#undef atol
#define atol(...) BS_BANNED(atol)
#undef gets
#define gets(...) BS_BANNED(gets)

#endif
