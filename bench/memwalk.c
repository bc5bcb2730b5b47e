// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memwalk.c - the speed limit of reading a perf.data here: map the file,
 * walk every record of the data section by its header's size and add up
 * every 8-byte word of each sample. No decoding, no ordering, no output:
 * what any reader has to touch at least. bench/speed.sh compares schedrep
 * with it. Host-order, file-mode perf.data only (the bench traces).
 *
 *   memwalk FILE   prints "BYTES RECORDS SAMPLES SUM"
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SAMPLE 9	/* PERF_RECORD_SAMPLE */

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int main(int argc, char **argv)
{
	uint64_t off, end, records = 0, samples = 0, sum = 0;
	const uint8_t *map;
	struct stat st;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) || st.st_size < 56) {
		fprintf(stderr, "usage: memwalk PERF.DATA (a readable file-mode perf.data)\n");
		return 2;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || memcmp(map, "PERFILE2", 8)) {
		fprintf(stderr, "memwalk: %s: not a host-order file-mode perf.data\n", argv[1]);
		return 2;
	}
	off = get64(map + 40);			/* the header's data section */
	end = off + get64(map + 48);
	if (end > (uint64_t)st.st_size || end < off)
		end = (uint64_t)st.st_size;
	while (off + 8 <= end) {
		uint32_t type;
		uint16_t size;
		uint64_t i;

		memcpy(&type, map + off, 4);
		memcpy(&size, map + off + 6, 2);
		if (size < 8 || off + size > end)
			break;
		if (type == SAMPLE) {
			for (i = 8; i + 8 <= size; i += 8)
				sum += get64(map + off + i);
			samples++;
		}
		records++;
		off += size;
	}
	printf("%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", off, records, samples, sum);
	return 0;
}
