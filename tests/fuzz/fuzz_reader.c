// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_reader.c - libFuzzer target: the reader on bytes held in memory
 * (perf.data in file or pipe mode, or the lossless JSON: the session sniffs
 * which), every event and field, then a rewind and a second pass.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srep_session *s = NULL;
	struct srep_error err;

	if (srep_session__open_mem(&s, data, size, "fuzz", NULL, &err) == 0) {
		if (fuzz_read_all(s) == 0 && srep_session__rewind(s, &err) == 0)
			fuzz_read_all(s);
	}
	srep_session__delete(s);
	return 0;
}
