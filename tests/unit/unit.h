/* unit.h: shared declarations of the unit tests (check). */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>
#include "contain.h"

Suite *lexical_suite(void);
Suite *policy_suite(void);
Suite *resolve_suite(void);

/* A fixture tree under a fresh temp dir: see fixture.c for its layout. */
struct fixture {
	char base[256];
	char root[300], outside[300], ro[300], evil[300];
};
void fixture_make(struct fixture *f);
void fixture_free(struct fixture *f);
/* A policy mapping for the fixture (no default trees unless defaults). */
struct ct_policy *fixture_policy(const struct fixture *f, const char *deny, int defaults);
void policy_free(struct ct_policy *p);

#endif
