// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_reader.c - libFuzzer target: the reader on bytes held in memory
 * (perf.data in file or pipe mode, or the lossless JSON: the session sniffs
 * which), every event and field, then a rewind and a second pass that
 * reads only the switches.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srep_session *s = NULL;
	struct srep_error err;

	if (srep_session__open_mem(&s, data, size, "fuzz", NULL, &err) == 0 &&
	    fuzz_read_all(s) == 0 && srep_session__rewind(s, &err) == 0) {
		/* the second pass reads switches only: other tracepoint samples go unread */
		srep_session__set_interest(s, SREP_EV_BIT(SREP_EV_SWITCH));
		fuzz_read_all(s);
	}
	srep_session__delete(s);
	return 0;
}
