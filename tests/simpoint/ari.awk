# ari.awk - the adjusted Rand index of two labellings (Hubert and Arabie):
# input lines "A B", the labels one item got from each; prints the index.
# 1 = the same partition, about 0 = no better than chance.
function c2(n) { return n * (n - 1) / 2 }
{ n++; ab[$1 SUBSEP $2]++; a[$1]++; b[$2]++ }
END {
	if (n < 2) { print 1; exit }
	for (k in ab) sab += c2(ab[k])
	for (k in a) sa += c2(a[k])
	for (k in b) sb += c2(b[k])
	expect = sa * sb / c2(n)
	top = (sa + sb) / 2
	if (top == expect) { print 1; exit }
	printf "%.4f\n", (sab - expect) / (top - expect)
}
