/* Single-thread C kernel for bench_kernel.py: mean NDCG@k of long-format input.

   Linear gain (the label), discount 1 / log2(rank + 1), queries with no relevant
   document score 0, the mean unweighted over queries. Tied scores: `ties` 0 keeps them
   in input order (sklearn-ndcg's ties="first"), 1 gives each tied document the mean
   gain of its tie group, the whole group also where the cutoff cuts it
   (ties="average"). The discounts and work buffers are sized to the longest query.
   Compiled by bench_kernel.py with `cc -O2 -shared -fPIC` (single thread) and called
   through ctypes.

   ndcg_grouped: rows of each query contiguous (runs of equal qid), found in one pass.
   ndcg_shuffled: any row order; rows grouped by a hash table of the query ids (grown
   as ids come) and a counting sort (stable: input order within each query), then as
   ndcg_grouped.
   k <= 0 means no cutoff. */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double key, value;
} pair;

/* Stable sort of pairs by decreasing key: insertion sort of runs of 16, then
   bottom-up merges (the left element first on equal keys). */
static void sort_pairs(pair *a, pair *tmp, int64_t n) {
    for (int64_t lo = 0; lo < n; lo += 16) {
        int64_t hi = lo + 16 < n ? lo + 16 : n;
        for (int64_t i = lo + 1; i < hi; i++) {
            pair x = a[i];
            int64_t j = i;
            while (j > lo && a[j - 1].key < x.key) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
    }
    for (int64_t width = 16; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) tmp[o++] = a[j].key > a[i].key ? a[j++] : a[i++];
            while (i < mid) tmp[o++] = a[i++];
            while (j < hi) tmp[o++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof(pair));
    }
}

/* Sum over the tie groups of the first `cut` entries of a (key, value) list sorted by
   decreasing key: with average ties, each group's mean value times the discounts of its
   positions in the cut; the group at the cut has `last_sum` / `last_count` as its
   mean (all its members, also those beyond the cut or the list). */
static double group_sum(const pair *sorted, int64_t cut, const double *discount,
                        double last_sum, int64_t last_count) {
    double total = 0.0;
    for (int64_t lo = 0; lo < cut;) {
        int64_t hi = lo + 1;
        double sum = sorted[lo].value;
        while (hi < cut && sorted[hi].key == sorted[lo].key) sum += sorted[hi++].value;
        double weights = 0.0;
        for (int64_t i = lo; i < hi; i++) weights += discount[i];
        double mean = hi == cut ? last_sum / (double)last_count : sum / (double)(hi - lo);
        total += mean * weights;
        lo = hi;
    }
    return total;
}

/* Sum of value * discount over the `cut` largest keys, decreasing; tied keys in input
   order (average = 0) or each given its tie group's mean value (average = 1). */
static double top_sum(const double *key, const double *value, int64_t n, int64_t cut,
                      const double *discount, pair *buf, pair *tmp, int average) {
    double total = 0.0;
    if (cut <= 16 && 4 * cut <= n) { /* short cut: a sorted buffer of the top keys */
        int64_t filled = 0;
        for (int64_t i = 0; i < n; i++) {
            double x = key[i];
            if (filled == cut && x <= buf[cut - 1].key) continue; /* later ties lose */
            int64_t j = filled < cut ? filled : cut - 1;
            while (j > 0 && buf[j - 1].key < x) {
                buf[j] = buf[j - 1];
                j--;
            }
            buf[j].key = x;
            buf[j].value = value[i];
            if (filled < cut) filled++;
        }
        if (!average) {
            for (int64_t i = 0; i < cut; i++) total += buf[i].value * discount[i];
            return total;
        }
        /* the tie group at the cut: every member of the query, in the buffer or not */
        double at_cut = buf[cut - 1].key, last_sum = 0.0;
        int64_t last_count = 0;
        for (int64_t i = 0; i < n; i++) {
            if (key[i] == at_cut) {
                last_sum += value[i];
                last_count++;
            }
        }
        return group_sum(buf, cut, discount, last_sum, last_count);
    }
    for (int64_t i = 0; i < n; i++) {
        buf[i].key = key[i];
        buf[i].value = value[i];
    }
    sort_pairs(buf, tmp, n);
    if (!average) {
        for (int64_t i = 0; i < cut; i++) total += buf[i].value * discount[i];
        return total;
    }
    double at_cut = buf[cut - 1].key, last_sum = 0.0;
    int64_t first = cut - 1, last = cut;
    while (first > 0 && buf[first - 1].key == at_cut) first--;
    while (last < n && buf[last].key == at_cut) last++;
    for (int64_t i = first; i < last; i++) last_sum += buf[i].value;
    return group_sum(buf, cut, discount, last_sum, last - first);
}

static double query_ndcg(const double *label, const double *score, int64_t n, int64_t k,
                         const double *discount, pair *buf, pair *tmp, int average) {
    int64_t cut = (k <= 0 || k > n) ? n : k;
    double ideal = top_sum(label, label, n, cut, discount, buf, tmp, 0);
    if (ideal <= 0.0) return 0.0;
    return top_sum(score, label, n, cut, discount, buf, tmp, average) / ideal;
}

static inline uint64_t hash(int64_t id) { return ((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 20; }

static double *make_discounts(int64_t n) {
    double *discount = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    for (int64_t i = 0; i < n; i++) discount[i] = 1.0 / (log(i + 2.0) / log(2.0));
    return discount;
}

/* Mean NDCG@k of queries whose rows are contiguous (runs of equal qid). A first pass
   finds the longest query, to which the discounts and the work buffers are sized. */
double ndcg_grouped(const double *label, const double *score, const int64_t *qid, int64_t n,
                    int64_t k, int64_t ties) {
    int64_t longest = 0;
    for (int64_t start = 0; start < n;) {
        int64_t end = start + 1;
        while (end < n && qid[end] == qid[start]) end++;
        if (end - start > longest) longest = end - start;
        start = end;
    }
    double *discount = make_discounts(longest);
    pair *buf = malloc((size_t)longest * sizeof(pair)), *tmp = malloc((size_t)longest * sizeof(pair));
    double total = 0.0;
    int64_t n_queries = 0;
    for (int64_t start = 0; start < n;) {
        int64_t end = start + 1;
        while (end < n && qid[end] == qid[start]) end++;
        total += query_ndcg(label + start, score + start, end - start, k, discount, buf, tmp,
                            ties == 1);
        n_queries++;
        start = end;
    }
    free(discount);
    free(buf);
    free(tmp);
    return n_queries ? total / n_queries : 0.0;
}

/* Mean NDCG@k of rows in any order: group by query id, then as ndcg_grouped. */
double ndcg_shuffled(const double *label, const double *score, const int64_t *qid, int64_t n,
                     int64_t k, int64_t ties) {
    /* open addressing, doubled when half full: small while the ids are few */
    int64_t size = 1024, n_queries = 0;
    int64_t *slot_id = malloc((size_t)size * sizeof(int64_t));
    int64_t *slot_code = malloc((size_t)size * sizeof(int64_t));
    memset(slot_code, 0xff, (size_t)size * sizeof(int64_t)); /* -1: empty */
    int64_t *code = malloc((size_t)n * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) {
        int64_t s = (int64_t)(hash(qid[i]) & (uint64_t)(size - 1));
        while (slot_code[s] >= 0 && slot_id[s] != qid[i]) s = (s + 1) & (size - 1);
        if (slot_code[s] < 0) {
            slot_id[s] = qid[i];
            slot_code[s] = n_queries++;
        }
        code[i] = slot_code[s];
        if (2 * n_queries > size) { /* rehash into a table twice the size */
            int64_t old_size = size, *old_id = slot_id, *old_code = slot_code;
            size *= 2;
            slot_id = malloc((size_t)size * sizeof(int64_t));
            slot_code = malloc((size_t)size * sizeof(int64_t));
            memset(slot_code, 0xff, (size_t)size * sizeof(int64_t));
            for (int64_t t = 0; t < old_size; t++) {
                if (old_code[t] < 0) continue;
                int64_t u = (int64_t)(hash(old_id[t]) & (uint64_t)(size - 1));
                while (slot_code[u] >= 0) u = (u + 1) & (size - 1);
                slot_id[u] = old_id[t];
                slot_code[u] = old_code[t];
            }
            free(old_id);
            free(old_code);
        }
    }
    free(slot_id);
    free(slot_code);
    int64_t *start = calloc((size_t)n_queries + 1, sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) start[code[i] + 1]++;
    int64_t longest = 0;
    for (int64_t q = 0; q < n_queries; q++) {
        if (start[q + 1] > longest) longest = start[q + 1];
        start[q + 1] += start[q];
    }
    double *grouped = malloc(2 * (size_t)n * sizeof(double)), *gscore = grouped + n;
    int64_t *fill = malloc((size_t)n_queries * sizeof(int64_t));
    memcpy(fill, start, (size_t)n_queries * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) { /* stable: input order within each query */
        int64_t at = fill[code[i]]++;
        grouped[at] = label[i];
        gscore[at] = score[i];
    }
    free(fill);
    free(code);
    double *discount = make_discounts(longest);
    pair *buf = malloc((size_t)longest * sizeof(pair)), *tmp = malloc((size_t)longest * sizeof(pair));
    double total = 0.0;
    for (int64_t q = 0; q < n_queries; q++) {
        int64_t lo = start[q], m = start[q + 1] - lo;
        total += query_ndcg(grouped + lo, gscore + lo, m, k, discount, buf, tmp, ties == 1);
    }
    free(discount);
    free(buf);
    free(tmp);
    free(grouped);
    free(start);
    return n_queries ? total / n_queries : 0.0;
}
