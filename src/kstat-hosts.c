/*
 * A team across hosts (MPI): the sum of the hosts' kernel accounts of a
 * phase, and each host's notes naming it.  What a sum means is said in
 * doc/RECORD.md: counters, the device's counts, bytes and queue times
 * add up; sizes and awaits are made again from the summed requests;
 * gauges, util, pressure, the cgroup and the timeline stay each host's.
 */
#include <stdio.h>
#include <string.h>

#include "kstat.h"
#include "text.h"

/* sum += a host's counters, by name; those that do not fit are left. */
static void
add_counts(struct ks_count *sum, int *n, int max, const struct ks_count *c,
    int nc)
{
	int	i, k;

	for (i = 0; i < nc; i++) {
		for (k = 0; k < *n; k++)
			if (strcmp(sum[k].name, c[i].name) == 0)
				break;
		if (k == *n) {
			if (*n >= max)
				continue;
			sum[k] = c[i];
			(*n)++;
			continue;
		}
		sum[k].d += c[i].d;
	}
}

/* The four directions' requests per second and their awaits. */
static const int dir_rate[] = { KI_RS, KI_WS, KI_DS, KI_FS };
static const int dir_wait[] = { KI_RAWAIT, KI_WAWAIT, KI_DAWAIT, KI_FAWAIT };
#define NDIR	(sizeof(dir_rate) / sizeof(dir_rate[0]))

/* The summed device of role, made if it is not there yet; NULL full. */
static struct ks_dev *
dev_slot(struct kstat_phase *s, const struct ks_dev *d)
{
	size_t	len, add;
	int	i;

	for (i = 0; i < s->ndev; i++) {
		if (strcmp(s->dev[i].role, d->role) != 0)
			continue;
		/* Each host's device name once: "sda+nvme0n1". */
		len = strlen(s->dev[i].name);
		add = strlen(d->name);
		if (strcmp(s->dev[i].name, d->name) != 0 &&
		    len + 1 + add < sizeof(s->dev[i].name)) {
			s->dev[i].name[len] = '+';
			memcpy(s->dev[i].name + len + 1, d->name, add + 1);
		}
		return &s->dev[i];
	}
	if (s->ndev >= KS_DEV_MAX)
		return NULL;
	memset(&s->dev[s->ndev], 0, sizeof(s->dev[0]));
	memcpy(s->dev[s->ndev].name, d->name, sizeof(d->name));
	memcpy(s->dev[s->ndev].role, d->role, sizeof(d->role));
	return &s->dev[s->ndev++];
}

/* Sizes, merge shares and awaits again from the summed requests. */
static void
dev_ratios(struct ks_dev *d, const double *waited)
{
	size_t	k;

	d->v[KI_RRQM_PCT] = d->v[KI_RRQMS] + d->v[KI_RS] > 0 ? 100 *
	    d->v[KI_RRQMS] / (d->v[KI_RRQMS] + d->v[KI_RS]) : 0;
	d->v[KI_WRQM_PCT] = d->v[KI_WRQMS] + d->v[KI_WS] > 0 ? 100 *
	    d->v[KI_WRQMS] / (d->v[KI_WRQMS] + d->v[KI_WS]) : 0;
	d->v[KI_DRQM_PCT] = d->v[KI_DRQMS] + d->v[KI_DS] > 0 ? 100 *
	    d->v[KI_DRQMS] / (d->v[KI_DRQMS] + d->v[KI_DS]) : 0;
	d->v[KI_RAREQSZ] = d->v[KI_RS] > 0 ? d->v[KI_RKBS] / d->v[KI_RS] : 0;
	d->v[KI_WAREQSZ] = d->v[KI_WS] > 0 ? d->v[KI_WKBS] / d->v[KI_WS] : 0;
	d->v[KI_DAREQSZ] = d->v[KI_DS] > 0 ? d->v[KI_DKBS] / d->v[KI_DS] : 0;
	for (k = 0; k < NDIR; k++)
		d->v[dir_wait[k]] = d->v[dir_rate[k]] > 0 ? waited[k] /
		    d->v[dir_rate[k]] : 0;
	/* Busy time does not add up across devices: each host's. */
	d->v[KI_UTIL] = -1;
}

static void
sum_devices(struct kstat_phase *s, const struct kstat_host *h, int n)
{
	static const int add[] = {
		KI_RS, KI_RKBS, KI_RRQMS, KI_WS, KI_WKBS, KI_WRQMS,
		KI_DS, KI_DKBS, KI_DRQMS, KI_FS, KI_AQUSZ
	};
	double			 waited[KS_DEV_MAX][NDIR];
	const struct ks_dev	*d;
	struct ks_dev		*o;
	size_t			 f, k;
	int			 i, x;

	memset(waited, 0, sizeof(waited));
	for (x = 0; x < n; x++)
		for (i = 0; i < h[x].k.ndev; i++) {
			d = &h[x].k.dev[i];
			if ((o = dev_slot(s, d)) == NULL)
				continue;
			for (f = 0; f < sizeof(add) / sizeof(add[0]); f++)
				o->v[add[f]] += d->v[add[f]];
			for (k = 0; k < NDIR; k++)
				waited[o - s->dev][k] += d->v[dir_wait[k]] *
				    d->v[dir_rate[k]];
		}
	for (i = 0; i < s->ndev; i++)
		dev_ratios(&s->dev[i], waited[i]);
	if (s->ndev == 0 && n > 0)
		snprintf(s->dev_why, sizeof(s->dev_why), "%s", h[0].k.dev_why);
}

/* Each kind of note: the first host's words, and how many more. */
static void
sum_notes(struct kstat_phase *s, const struct kstat_host *h, int n)
{
	int	k, x, first, more;

	for (k = 0; k < KN_COUNT; k++) {
		first = -1;
		more = 0;
		for (x = 0; x < n; x++)
			if (h[x].k.notes & (1u << k)) {
				if (first < 0)
					first = x;
				else
					more++;
			}
		if (first < 0)
			continue;
		s->notes |= 1u << k;
		s->note_scope[k] = h[first].k.note_scope[k];
		if (more > 0)
			snprintf(s->note_text[k], sizeof(s->note_text[k]),
			    "%.440s (and on %d more host%s)",
			    h[first].k.note_text[k], more, more == 1 ? "" :
			    "s");
		else
			memcpy(s->note_text[k], h[first].k.note_text[k],
			    sizeof(s->note_text[k]));
	}
}

void
kstat_sum(struct kstat_phase *s, const struct kstat_host *h, int n)
{
	int	x;

	memset(s, 0, sizeof(*s));
	if (n < 1)
		return;
	/* One host: the sum is its own account (its timeline stays its). */
	if (n == 1) {
		*s = h[0].k;
		s->tl = NULL;
		return;
	}
	s->known = 1;
	s->hosts = n;
	s->span = h[0].k.span;
	s->dirty_thresh = s->dirty_bg_thresh = -1;
	s->vm_ok = 1;
	for (x = 0; x < n; x++) {
		if (!h[x].k.known || !h[x].k.vm_ok) {
			/* A sum that lacks a host is none. */
			s->vm_ok = 0;
			s->nvm = 0;
			snprintf(s->vm_why, sizeof(s->vm_why), "host %.40s: "
			    "%.100s", h[x].name, h[x].k.known ? h[x].k.vm_why :
			    "not read");
			break;
		}
		add_counts(s->vm, &s->nvm, KS_VM_MAX, h[x].k.vm, h[x].k.nvm);
	}
	sum_devices(s, h, n);
	sum_notes(s, h, n);
}

void
kstat_host_label(struct kstat_phase *k, const char *host)
{
	char	raw[64], name[64], t[sizeof(k->note_text[0])];
	int	n;

	/* A host's name is anyone's: escaped for the terminal. */
	snprintf(raw, sizeof(raw), "%s", host);
	text_utf8_fix(raw);
	text_escape(name, sizeof(name), raw);
	for (n = 0; n < KN_COUNT; n++) {
		if (!(k->notes & (1u << n)))
			continue;
		snprintf(t, sizeof(t), "host %.40s: %.440s", name,
		    k->note_text[n]);
		memcpy(k->note_text[n], t, sizeof(t));
	}
}
