/* util/sig.c - catching stop signals, except those ignored at start. */
#include "util/sig.h"

#include <assert.h>
#include <string.h>

#include "util/banned.h"

void bs_sig_catch(struct bs_sig_saved *s, const int *sigs, size_t n,
		  void (*handler)(int), const sigset_t *mask)
{
	struct sigaction sa;
	size_t i;

	assert(n <= BS_SIG_MAX);
	memset(s, 0, sizeof(*s));
	s->sigs = sigs;
	s->n = n;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		if (sigaction(sigs[i], NULL, &s->old[i]) != 0 ||
		    s->old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL) == 0)
			s->caught[i] = 1;
	}
}

void bs_sig_restore(struct bs_sig_saved *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->caught[i])
			sigaction(s->sigs[i], &s->old[i], NULL);
		s->caught[i] = 0;
	}
}
