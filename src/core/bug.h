/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bug.h - SREP_BUG_ON: stop on a broken internal invariant (never on input).
 */
#ifndef SREP_BUG_H
#define SREP_BUG_H

#define SREP_BUG_ON(cond) do { if (cond) srep_bug(__FILE__, __LINE__, #cond); } while (0)
void srep_bug(const char *file, int line, const char *what) __attribute__((noreturn));

#endif /* SREP_BUG_H */
