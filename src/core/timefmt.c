// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timefmt.c - time and duration arguments, parsed exactly (decimal digits
 * to nanoseconds, no floating point rounding).
 */
#include <ctype.h>
#include <string.h>

#include <schedrep/schedrep.h>

#define NSEC_PER_SEC 1000000000ull

/* "SECONDS[.FRACTION]" -> ns scaled by 'unit_ns'; 'end' gets the first unparsed char */
static int decimal_ns(const char *s, uint64_t unit_ns, uint64_t *out, const char **end)
{
	uint64_t ip = 0, frac = 0, scale = unit_ns;
	const char *p = s;

	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (scale >= 10) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	if (unit_ns && ip > (UINT64_MAX - frac) / unit_ns)
		return -1;
	*out = ip * unit_ns + frac;
	*end = p;
	return 0;
}

int srep_time__parse(const char *spec, uint64_t trace_start_ns, uint64_t *out,
		     struct srep_error *err)
{
	bool absolute = spec[0] == '@';
	const char *end;
	uint64_t ns;

	if (decimal_ns(spec + absolute, NSEC_PER_SEC, &ns, &end) || *end)
		return srep_error__set(err, SREP_E_TIME,
				       "'%s': expected seconds from the trace start (0.5) or an "
				       "absolute timestamp (@5170.123456)", spec);
	if (!absolute && ns > UINT64_MAX - trace_start_ns)
		return srep_error__set(err, SREP_E_TIME, "'%s': time out of range", spec);
	*out = absolute ? ns : trace_start_ns + ns;
	return 0;
}

int srep_time__parse_range(const char *spec, uint64_t trace_start_ns, uint64_t *from,
			   uint64_t *to, struct srep_error *err)
{
	const char *comma = strchr(spec, ',');
	char first[64];
	size_t len;
	int ret;

	if (!comma)
		return srep_error__set(err, SREP_E_TIME, "'%s': expected FROM,TO", spec);
	len = (size_t)(comma - spec);
	if (len >= sizeof(first))
		return srep_error__set(err, SREP_E_TIME, "'%s': time too long", spec);
	memcpy(first, spec, len);
	first[len] = '\0';
	*from = 0;
	*to = UINT64_MAX;
	if (len) {
		ret = srep_time__parse(first, trace_start_ns, from, err);
		if (ret)
			return ret;
	}
	if (comma[1]) {
		ret = srep_time__parse(comma + 1, trace_start_ns, to, err);
		if (ret)
			return ret;
	}
	if (*from > *to)
		return srep_error__set(err, SREP_E_TIME, "'%s': FROM is after TO", spec);
	return 0;
}

int srep_duration__parse(const char *spec, uint64_t *out_ns, struct srep_error *err)
{
	static const struct { const char *suffix; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", NSEC_PER_SEC }, { "", NSEC_PER_SEC },
	};
	const char *end;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (decimal_ns(spec, units[i].ns, out_ns, &end) == 0 && strcmp(end, units[i].suffix) == 0)
			return *out_ns ? 0 : srep_error__set(err, SREP_E_TIME,
							     "'%s': duration must be > 0", spec);
	}
	return srep_error__set(err, SREP_E_TIME,
			       "'%s': expected a duration such as 10ms, 1.5s, 200us or 500ns", spec);
}
