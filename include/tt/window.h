/* SPDX-License-Identifier: ISC */
/*
 * window: ttp-filter's compact per-record summary, the signpost window of tt-perf-report
 * (docs/tt-perf-report.md §7, deviation D3), and the parsers of --id-range and --device
 * lists.
 *
 * The selection works on summaries, never on records: one struct fent per input record
 * (about 48 bytes) holds what the window, the device merge and the later filters need,
 * plus where the record's line lies in the spool.
 */
#ifndef TTP_WINDOW_H
#define TTP_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/names.h"

enum fkind { FK_OP, FK_SIGNPOST, FK_OTHER };

/* fent.flags */
#define FE_DEVOP	0x0001	/* op_type is "tt_dnn_device" */
#define FE_HASDEV	0x0002	/* device is set */
#define FE_GAP		0x0004	/* the record has gap_ns */
#define FE_HOST		0x0008	/* host op: op contains "(torch)" */
#define FE_DROP		0x0010	/* dropped by a later record filter (--op, --phase, ...) */
#define FE_CLRGAP	0x0020	/* on output: delete gap_ns */
#define FE_SETDUR	0x0040	/* on output: device_ns = dur (NaN: delete it) */
#define FE_GPULINK	0x0080	/* a PyTorch "gpu" record; id: the entry of the op it is charged to */
#define FE_PENDING	0x0100	/* a device op whose merge step is still to come */
#define FE_SKIP		0x0200	/* not written: merged into another device's op, or outside
				   the window */

struct fent {
	uint64_t off;		/* the record's line in the spool */
	int64_t	 id;		/* kind op/signpost: the op ID */
	int64_t	 device;	/* when FE_HASDEV */
	double	 dur;		/* device_ns, NaN when missing */
	uint32_t len;		/* line length, newline included */
	uint32_t name;		/* op (ops) or name (signposts), NAME_NONE when missing */
	uint16_t flags;
	uint8_t	 kind;		/* enum fkind */
};

/* The signpost window. */
struct wopts {
	const char *start;	/* --start-signpost, or NULL */
	const char *end;	/* --end-signpost, or NULL */
	bool	ignore;		/* --ignore-signposts: everything, signposts included */
	bool	print;		/* --print-signposts: keep signposts inside the window */
	bool	whole;		/* no default window: whole input, signposts dropped unless print */
	bool	verbose;	/* say() the reference's informational messages */
};

/*
 * The window as the signposts decide it, before any entry is looked at: from the
 * signposts' names in stream order (sp[0..nsp)) and the options. window_select plans
 * over the input's signposts; ttp-filter's streaming plans over those a trace record
 * announces.
 */
struct wplan {
	bool	 all;		/* --ignore-signposts: every entry, signposts included */
	bool	 keep_sp;	/* signposts inside the window are kept */
	bool	 named;		/* --start-signpost/--end-signpost: bounds by ID */
	bool	 has_lo, has_hi;
	size_t	 lo, hi;	/* named: the bounding signposts' ordinals in sp */
	bool	 by_last;	/* the default window: after the first entry named last */
	uint32_t last;
	/* what is said: the reference's notes and the informational messages */
	bool	 no_sp_note, multi_note, not_enough_note;
};
/* A named signpost that does not exist is an error (D3): -1 and err set ("signpost
 * 'x' not found; signposts present: ..."), before anything is said; otherwise 0, and
 * nothing is said until window_say. */
struct error;
int window_plan(const uint32_t *sp, size_t nsp, const struct names *nm,
    const struct wopts *o, struct wplan *p, struct error *err);
/* Say what tt-perf-report says about the window: its informational messages with say()
 * under o->verbose, its warnings with note(). */
void window_say(const uint32_t *sp, size_t nsp, const struct names *nm,
    const struct wopts *o, const struct wplan *p);

/*
 * Select the window over e[0..n) (stream order, i.e. sorted) as tt-perf-report does
 * (§7): --start-signpost / --end-signpost keep the entries whose ID is greater /
 * less than the chosen signpost's ID; the default window keeps the entries after the
 * first one named like the last signpost, by stream position. Which occurrence is first,
 * second or last is counted in stream order. The two rules differ when stream order is
 * not ID order (trace replays, several files). FK_OTHER entries are not considered (the
 * caller passes them through). Writes the indices of
 * the kept entries, in stream order, to sel (room for n) and their number to *nsel;
 * returns 0. Informational messages with say() under verbose, the reference's warnings
 * with note(). A named start or end signpost that does not exist is an error (D3): -1
 * and err set (window_plan's), nothing said.
 */
int window_select(const struct fent *e, size_t n, const struct names *nm,
    const struct wopts *o, uint32_t *sel, size_t *nsel, struct error *err);

/* --id-range: "A-B", "A-", "-B"; commas inside the numbers are ignored. */
struct idrange {
	bool	has_lo, has_hi;
	int64_t	lo, hi;
};
/* Parse s; on error return a message (static storage) and leave r undefined. */
const char *idrange_parse(const char *s, struct idrange *r);

/* --device: a comma list of numbers and ranges ("0,2-3,8-"). */
struct devlist {
	struct { int64_t lo, hi; } *r;
	size_t	n;
};
const char *devlist_parse(const char *s, struct devlist *dl);
bool devlist_has(const struct devlist *dl, int64_t d);
void devlist_free(struct devlist *dl);

#endif
