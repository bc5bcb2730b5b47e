// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symfind.c - which file on this machine holds the symbols of a file the
 * trace names (a path on the target).
 *
 * Binaries, in this order:
 *  1. the perf build-id cache (--buildid-dir, perf's layout):
 *     DIR/.build-id/xx/yyyy (a link to the cached "elf"), DIR/PATH/ID/elf;
 *  2. the target's file system: SYMFS/PATH (SYMFS is "/" by default);
 *  3. a debug file alone, which has the symbols and program headers too:
 *     SYMFS/usr/lib/debug/.build-id/xx/yyyy.debug.
 * Separate debug files of a binary found so:
 *  1. SYMFS/usr/lib/debug/.build-id/xx/yyyy.debug;
 *  2. DIR/PATH/ID/debug in the build-id cache;
 *  3. the .gnu_debuglink name beside the binary, in its .debug/
 *     directory, and under SYMFS/usr/lib/debug/DIRNAME(PATH)/.
 * A candidate whose build id differs from the one wanted (the trace's, or
 * the binary's for a debug file) is passed over and named to the caller,
 * which warns once. A candidate without a build id is taken: nothing says
 * it is wrong (perf does the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sym_local.h"

void symfind_hex(const uint8_t *id, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len && i < SYM_MAX_BUILD_ID; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * i] = '\0';
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ROOT + PATH without a doubled slash; NULL on ENOMEM */
static char *join(const char *root, const char *path)
{
	size_t n = strlen(root);
	char *out;

	while (n && root[n - 1] == '/')
		n--;
	if (asprintf(&out, "%.*s%s%s", (int)n, root, path[0] == '/' ? "" : "/", path) < 0)
		return NULL;
	return out;
}

/* "xx/yyyy" of a build id, plus 'suffix' */
static char *build_id_link(const char *dir, const uint8_t *id, size_t len, const char *suffix)
{
	char hex[2 * SYM_MAX_BUILD_ID + 1], *out;

	if (!len || !dir)
		return NULL;
	symfind_hex(id, len, hex);
	if (asprintf(&out, "%s/.build-id/%.2s/%s%s", dir, hex, hex + 2, suffix) < 0)
		return NULL;
	return out;
}

/* DIR/PATH/ID/NAME: perf's cache directory of one file */
static char *cache_entry(const char *dir, const char *trace_path, const uint8_t *id, size_t len,
			 const char *name)
{
	char hex[2 * SYM_MAX_BUILD_ID + 1], *base, *out = NULL;

	if (!len || !dir)
		return NULL;
	symfind_hex(id, len, hex);
	base = join(dir, trace_path);
	if (base && asprintf(&out, "%s/%s/%s", base, hex, name) < 0)
		out = NULL;
	free(base);
	return out;
}

enum verdict { CAND_MISSING, CAND_OK, CAND_MISMATCH };

/* a candidate exists, is ELF and carries the wanted build id (or none) */
static enum verdict check(const char *path, const uint8_t *want, size_t want_len,
			  uint8_t *id, size_t *id_len)
{
	uint8_t got[SYM_MAX_BUILD_ID];
	int n;

	if (!path || !is_file(path))
		return CAND_MISSING;
	n = dso_file_build_id(path, got, sizeof(got));
	if (n < 0)
		return CAND_MISSING;
	if (n > 0 && want_len && ((size_t)n != want_len || memcmp(got, want, want_len)))
		return CAND_MISMATCH;
	if (id && id_len) {
		memcpy(id, got, (size_t)n);
		*id_len = (size_t)n;
	}
	return CAND_OK;
}

/*
 * Try candidates in order: the first good one is returned (malloc'd); the
 * first one with a wrong build id goes to *mismatch (malloc'd) if asked.
 */
static char *first_good(char **cands, size_t nr, const uint8_t *want, size_t want_len,
			char **mismatch, uint8_t *id, size_t *id_len)
{
	char *found = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		enum verdict v = found ? CAND_MISSING : check(cands[i], want, want_len, id, id_len);

		if (v == CAND_OK) {
			found = cands[i];
			cands[i] = NULL;
		} else if (v == CAND_MISMATCH && mismatch && !*mismatch) {
			*mismatch = cands[i];
			cands[i] = NULL;
		}
		free(cands[i]);
	}
	return found;
}

static const char *root_of(const struct symfind *f)
{
	return f->symfs && f->symfs[0] ? f->symfs : "/";
}

char *symfind_main(const struct symfind *f, const char *trace_path, const uint8_t *want,
		   size_t want_len, char **mismatch, uint8_t *id, size_t *id_len)
{
	char *cands[4] = { NULL };
	size_t nr = 0;
	char *root_debug;

	*id_len = 0;
	cands[nr++] = build_id_link(f->buildid_dir, want, want_len, "");
	cands[nr++] = cache_entry(f->buildid_dir, trace_path, want, want_len, "elf");
	if (trace_path[0] == '/') {
		cands[nr++] = join(root_of(f), trace_path);
		root_debug = join(root_of(f), "/usr/lib/debug");
		cands[nr++] = build_id_link(root_debug, want, want_len, ".debug");
		free(root_debug);
	}
	return first_good(cands, nr, want, want_len, mismatch, id, id_len);
}

/* DIRNAME(path) + "/" + name, or DIRNAME(path) + "/.debug/" + name */
static char *beside(const char *path, const char *sub, const char *name)
{
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path) : 0;
	char *out;

	if (asprintf(&out, "%.*s%s%s/%s", dir_len, path, slash ? "" : ".", sub, name) < 0)
		return NULL;
	return out;
}

char *symfind_debug(const struct symfind *f, const char *trace_path, const char *host_path,
		    const uint8_t *id, size_t len, const char *debuglink)
{
	char *cands[5] = { NULL }, *root_debug = join(root_of(f), "/usr/lib/debug"), *found;
	size_t nr = 0;

	cands[nr++] = build_id_link(root_debug, id, len, ".debug");
	cands[nr++] = cache_entry(f->buildid_dir, trace_path, id, len, "debug");
	/* a debug link is a plain file name; one with a slash is not followed */
	if (debuglink && debuglink[0] && !strchr(debuglink, '/')) {
		char *rel = trace_path[0] == '/' ? beside(trace_path, "", debuglink) : NULL;

		cands[nr++] = beside(host_path, "", debuglink);
		cands[nr++] = beside(host_path, "/.debug", debuglink);
		cands[nr++] = rel && root_debug ? join(root_debug, rel) : NULL;
		free(rel);
	}
	free(root_debug);
	found = first_good(cands, nr, id, len, NULL, NULL, NULL);
	/* never the binary itself (a debug link naming its own file) */
	if (found && !strcmp(found, host_path)) {
		free(found);
		return NULL;
	}
	return found;
}

char *symfind_cached(const struct symfind *f, const char *trace_name, const uint8_t *id,
		     size_t len, const char *entry)
{
	char *path = cache_entry(f->buildid_dir, trace_name, id, len, entry);

	if (path && is_file(path))
		return path;
	free(path);
	return NULL;
}
