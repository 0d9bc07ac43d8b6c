/* SPDX-License-Identifier: ISC */
/*
 * chart: the drawing surface of ttp's charts (chart.h). PNG and PDF are drawn through
 * cairo; SVG is written as text here, so that it stays byte-stable and its text stays
 * searchable. Both measure text with the same pinned font, so a chart is laid out the
 * same in every format.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <zlib.h>

#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include "core/buf.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "report/chart.h"

#define FONT_FAMILY	"DejaVu Sans"

struct chart {
	int		 fmt;
	double		 w, h, dpi;
	cairo_surface_t	*surf;		/* the recording, replayed when written */
	cairo_t		*cr;		/* also the measuring context of SVG */
	struct buf	 svg;
	int		 rotated, clipped, nclip;
};

int
chart_format_parse(const char *word)
{
	if (strcmp(word, "png") == 0)
		return CHART_PNG;
	if (strcmp(word, "svg") == 0)
		return CHART_SVG;
	if (strcmp(word, "pdf") == 0)
		return CHART_PDF;
	return -1;
}

int
chart_format_of_path(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	char ext[4];
	size_t i;

	if (dot == NULL || (slash != NULL && dot < slash) || strlen(dot + 1) != 3)
		return -1;
	for (i = 0; i < 3; i++)
		ext[i] = (char)(dot[1 + i] >= 'A' && dot[1 + i] <= 'Z' ? dot[1 + i] + 32 :
		    dot[1 + i]);
	ext[3] = '\0';
	return chart_format_parse(ext);
}

const char *
chart_format_name(int fmt)
{
	return fmt == CHART_PNG ? "png" : fmt == CHART_PDF ? "pdf" : "svg";
}

/* --- the font ------------------------------------------------------------------------ */

static FT_Library ftlib;
static cairo_font_face_t *faces[2];	/* regular, bold; live until the process ends */
static const cairo_user_data_key_t face_key;

static void
done_face(void *p)
{
	FT_Done_Face((FT_Face)p);
}

/* Where Debian's fonts-dejavu-core puts them. */
static const char *const deb_font[2] = {
	"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
	"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};

/* The file of DejaVu Sans of a weight: Debian's, else the one fontconfig gives; NULL
 * (err set) when fontconfig's match is another family. */
static char *
font_file(int bold, struct error *err)
{
	FcPattern *pat, *m;
	FcResult res;
	FcChar8 *fam = NULL, *file = NULL;
	char *path = NULL;

	if (access(deb_font[bold], R_OK) == 0)
		return xstrdup(deb_font[bold]);
	if (!FcInit()) {
		error_set(err, NULL, 0, -1, "fontconfig cannot be initialised");
		return NULL;
	}
	pat = FcPatternBuild(NULL, FC_FAMILY, FcTypeString, (const FcChar8 *)FONT_FAMILY,
	    FC_WEIGHT, FcTypeInteger, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR,
	    FC_SLANT, FcTypeInteger, FC_SLANT_ROMAN, (char *)NULL);
	if (pat == NULL)
		die(EXIT_DATA, "out of memory");
	FcConfigSubstitute(NULL, pat, FcMatchPattern);
	FcDefaultSubstitute(pat);
	m = FcFontMatch(NULL, pat, &res);
	FcPatternDestroy(pat);
	if (m != NULL && FcPatternGetString(m, FC_FAMILY, 0, &fam) == FcResultMatch &&
	    strcmp((const char *)fam, FONT_FAMILY) == 0 &&
	    FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch)
		path = xstrdup((const char *)file);
	else
		error_set(err, NULL, 0, -1, "charts need the font " FONT_FAMILY
		    " (Debian's fonts-dejavu-core), which fontconfig does not find");
	if (m != NULL)
		FcPatternDestroy(m);
	return path;
}

static int
load_fonts(struct error *err)
{
	int b;

	if (faces[0] != NULL)
		return 0;
	if (ftlib == NULL && FT_Init_FreeType(&ftlib) != 0) {
		error_set(err, NULL, 0, -1, "FreeType cannot be initialised");
		return -1;
	}
	for (b = 0; b < 2; b++) {
		FT_Face ft;
		char *path = font_file(b, err);

		if (path == NULL)
			return -1;
		if (FT_New_Face(ftlib, path, 0, &ft) != 0) {
			error_set(err, NULL, 0, -1, "%s: FreeType cannot read the font", path);
			free(path);
			return -1;
		}
		free(path);
		faces[b] = cairo_ft_font_face_create_for_ft_face(ft, 0);
		if (cairo_font_face_set_user_data(faces[b], &face_key, ft, done_face) !=
		    CAIRO_STATUS_SUCCESS)
			die(EXIT_DATA, "out of memory");
	}
	return 0;
}

/* Fixed rendering: grey antialiasing, no hinting, unhinted metrics. */
static void
set_font(cairo_t *cr, double size, int bold)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	cairo_set_font_face(cr, faces[bold ? 1 : 0]);
	cairo_set_font_size(cr, size);
}

/* --- the surface --------------------------------------------------------------------- */

struct chart *
chart_new(int fmt, double w, double h, double dpi, struct error *err)
{
	struct chart *c;

	if (load_fonts(err) != 0)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->fmt = fmt;
	c->w = w;
	c->h = h;
	c->dpi = dpi;
	{
		/* recorded in user units; replayed when written: PNG in bands of rows
		 * (a whole 4500 x 3600 image would hold 65 MB), PDF at 72/dpi; SVG: a
		 * recording surface only to measure text */
		cairo_rectangle_t ext = {0, 0, w, h};

		c->surf = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, &ext);
	}
	c->cr = cairo_create(c->surf);
	if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS)
		die(EXIT_DATA, "cairo: %s", cairo_status_to_string(cairo_status(c->cr)));
	if (fmt == CHART_SVG) {
		buf_printf(&c->svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.2fin\" "
		    "height=\"%.2fin\" viewBox=\"0 0 %.0f %.0f\" font-family=\"" FONT_FAMILY
		    "\">\n", w / dpi, h / dpi, w, h);
	}
	chart_rect(c, 0, 0, w, h, 0xffffff, CHART_NONE, 0, 1);
	return c;
}

void
chart_free(struct chart *c)
{
	if (c == NULL)
		return;
	cairo_destroy(c->cr);
	cairo_surface_destroy(c->surf);
	buf_free(&c->svg);
	free(c);
}

static cairo_status_t
write_fp(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, (FILE *)closure) == len ? CAIRO_STATUS_SUCCESS :
	    CAIRO_STATUS_WRITE_ERROR;
}

/* --- PNG, written here: the recording replayed in bands, each row filtered and
 * deflated as it comes (RGB, 8 bits, no interlace) ------------------------------------ */

#define BAND_ROWS	128

struct png {
	FILE		*fp;
	z_stream	 z;
	unsigned char	 out[65536];
	int		 err;
};

static void
png_chunk(struct png *p, const char *type, const unsigned char *data, size_t n)
{
	unsigned char hdr[8];
	unsigned long crc;

	hdr[0] = (unsigned char)(n >> 24);
	hdr[1] = (unsigned char)(n >> 16);
	hdr[2] = (unsigned char)(n >> 8);
	hdr[3] = (unsigned char)n;
	memcpy(hdr + 4, type, 4);
	crc = crc32(crc32(0L, Z_NULL, 0), hdr + 4, 4);
	if (n > 0)
		crc = crc32(crc, data, (uInt)n);
	if (fwrite(hdr, 1, 8, p->fp) != 8 || (n > 0 && fwrite(data, 1, n, p->fp) != n))
		p->err = 1;
	hdr[0] = (unsigned char)(crc >> 24);
	hdr[1] = (unsigned char)(crc >> 16);
	hdr[2] = (unsigned char)(crc >> 8);
	hdr[3] = (unsigned char)crc;
	if (fwrite(hdr, 1, 4, p->fp) != 4)
		p->err = 1;
}

/* Deflate n bytes (flush: the end of the stream), writing full IDAT chunks. */
static void
png_deflate(struct png *p, unsigned char *data, size_t n, int flush)
{
	p->z.next_in = data;
	p->z.avail_in = (uInt)n;
	do {
		int rc;

		rc = deflate(&p->z, flush ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			die(EXIT_DATA, "zlib: deflate failed");
		if (p->z.avail_out == 0 || (flush && rc == Z_STREAM_END)) {
			png_chunk(p, "IDAT", p->out, sizeof(p->out) - p->z.avail_out);
			p->z.next_out = p->out;
			p->z.avail_out = sizeof(p->out);
		}
		if (flush && rc == Z_STREAM_END)
			break;
	} while (p->z.avail_in > 0 || flush);
}

static cairo_status_t
write_png(struct chart *c, FILE *fp)
{
	int w = (int)ceil(c->w), h = (int)ceil(c->h), band = h < BAND_ROWS ? h : BAND_ROWS;
	cairo_surface_t *img;
	unsigned char ihdr[13], *cur, *above, *out, *t;
	struct png p;
	int y0, y, x;
	size_t rl = (size_t)w * 3 + 1;

	if (w <= 0 || h <= 0)
		return CAIRO_STATUS_INVALID_SIZE;
	memset(&p, 0, sizeof(p));
	p.fp = fp;
	/* level 6 as libpng's default; one filter (Up) for every row: charts are flat
	 * areas that repeat from row to row */
	if (deflateInit(&p.z, 6) != Z_OK)
		die(EXIT_DATA, "zlib: out of memory");
	p.z.next_out = p.out;
	p.z.avail_out = sizeof(p.out);
	if (fwrite("\x89PNG\r\n\x1a\n", 1, 8, fp) != 8)
		p.err = 1;
	ihdr[0] = (unsigned char)(w >> 24);
	ihdr[1] = (unsigned char)(w >> 16);
	ihdr[2] = (unsigned char)(w >> 8);
	ihdr[3] = (unsigned char)w;
	ihdr[4] = (unsigned char)(h >> 24);
	ihdr[5] = (unsigned char)(h >> 16);
	ihdr[6] = (unsigned char)(h >> 8);
	ihdr[7] = (unsigned char)h;
	ihdr[8] = 8;	/* bits */
	ihdr[9] = 2;	/* RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	png_chunk(&p, "IHDR", ihdr, sizeof(ihdr));
	img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, band);
	cur = xcalloc(rl, 1);
	above = xcalloc(rl, 1);	/* zeros above the first row */
	out = xcalloc(rl, 1);
	out[0] = 2;		/* filter Up */
	for (y0 = 0; y0 < h; y0 += band) {
		cairo_t *cr = cairo_create(img);
		const unsigned char *px;
		int stride, nrows = h - y0 < band ? h - y0 : band;

		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
		cairo_set_source_surface(cr, c->surf, 0, -(double)y0);
		cairo_paint(cr);
		cairo_destroy(cr);
		cairo_surface_flush(img);
		px = cairo_image_surface_get_data(img);
		stride = cairo_image_surface_get_stride(img);
		for (y = 0; y < nrows; y++) {
			const uint32_t *src = (const uint32_t *)(const void *)(px +
			    (size_t)y * (size_t)stride);
			unsigned char *d = cur + 1;

			for (x = 0; x < w; x++) {
				uint32_t v = src[x];

				*d++ = (unsigned char)(v >> 16);
				*d++ = (unsigned char)(v >> 8);
				*d++ = (unsigned char)v;
			}
			/* each byte less the one above it */
			for (x = 1; x < (int)rl; x++)
				out[x] = (unsigned char)(cur[x] - above[x]);
			png_deflate(&p, out, rl, 0);
			t = above;
			above = cur;
			cur = t;
		}
	}
	png_deflate(&p, NULL, 0, 1);
	deflateEnd(&p.z);
	png_chunk(&p, "IEND", NULL, 0);
	free(cur);
	free(above);
	free(out);
	cairo_surface_destroy(img);
	return p.err ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* The recording replayed onto a PDF page of w/dpi x h/dpi inches. */
static cairo_status_t
write_pdf(struct chart *c, FILE *fp)
{
	double k = 72.0 / c->dpi;
	cairo_surface_t *pdf;
	cairo_t *cr;
	cairo_status_t st;

	pdf = cairo_pdf_surface_create_for_stream(write_fp, fp, c->w * k, c->h * k);
	/* no date: the same chart is the same file */
	cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATOR, "ttp");
	cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATE_DATE, "");
	cr = cairo_create(pdf);
	cairo_scale(cr, k, k);
	cairo_set_source_surface(cr, c->surf, 0, 0);
	cairo_paint(cr);
	cairo_destroy(cr);
	cairo_surface_finish(pdf);
	st = cairo_surface_status(pdf);
	cairo_surface_destroy(pdf);
	return st;
}

static void svg_esc(struct buf *b, const char *s);

/* The chart in its format to fp; 0, or the cairo status (errno for SVG). */
static cairo_status_t
write_fp_fmt(struct chart *c, FILE *fp)
{
	if (c->fmt == CHART_SVG) {
		buf_adds(&c->svg, "</svg>\n");
		return fwrite(c->svg.p, 1, c->svg.len, fp) == c->svg.len ?
		    CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
	}
	return c->fmt == CHART_PNG ? write_png(c, fp) : write_pdf(c, fp);
}

int
chart_write_fp(struct chart *c, FILE *fp)
{
	cairo_status_t st = write_fp_fmt(c, fp);

	chart_free(c);
	return st == CAIRO_STATUS_SUCCESS && !ferror(fp) ? 0 : -1;
}

void
chart_svg_text(struct chart *c, const char *text)
{
	if (c->fmt == CHART_SVG)
		svg_esc(&c->svg, text);
}

void
chart_svg(struct chart *c, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (c->fmt != CHART_SVG)
		return;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(EXIT_DATA, "out of memory");
	buf_adds(&c->svg, s);
	free(s);
}

int
chart_write(struct chart *c, const char *path, struct error *err)
{
	struct outfile *f;
	FILE *fp;
	cairo_status_t st = CAIRO_STATUS_SUCCESS;
	int rc = 0;

	/* through a temporary renamed into place, never through a link (core/outfile) */
	if ((f = outfile_open(path, err)) == NULL) {
		chart_free(c);
		return -1;
	}
	fp = outfile_fp(f);
	st = write_fp_fmt(c, fp);
	if (st != CAIRO_STATUS_SUCCESS)
		rc = -1;
	chart_free(c);
	if (rc != 0) {
		error_set(err, NULL, 0, -1, "%s: %s", path, st != CAIRO_STATUS_SUCCESS ?
		    cairo_status_to_string(st) : strerror(errno != 0 ? errno : EIO));
		outfile_abort(f);
		return -1;
	}
	return outfile_commit(f, err);
}

static void
set_rgb(cairo_t *cr, long rgb, double alpha)
{
	cairo_set_source_rgba(cr, (double)((rgb >> 16) & 0xff) / 255.0,
	    (double)((rgb >> 8) & 0xff) / 255.0, (double)(rgb & 0xff) / 255.0, alpha);
}

/* The SVG text of a colour. */
static void
svg_colour(struct buf *b, const char *attr, long rgb)
{
	if (rgb == CHART_NONE)
		buf_printf(b, " %s=\"none\"", attr);
	else
		buf_printf(b, " %s=\"#%06lx\"", attr, (unsigned long)rgb & 0xffffff);
}

static void
svg_esc(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': buf_adds(b, "&amp;"); break;
		case '<': buf_adds(b, "&lt;"); break;
		case '>': buf_adds(b, "&gt;"); break;
		case '"': buf_adds(b, "&quot;"); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			buf_addc(b, (unsigned char)*s < 0x20 ? ' ' : *s);
		}
	}
}

/* Fill (fill_opacity) and stroke (stroke_opacity, width) the current cairo path, either
 * one CHART_NONE, then clear the path. */
static void
paint_path(struct chart *c, long fill, double fill_opacity, long stroke,
    double stroke_opacity, double width)
{
	if (fill != CHART_NONE) {
		set_rgb(c->cr, fill, fill_opacity);
		cairo_fill_preserve(c->cr);
	}
	if (stroke != CHART_NONE) {
		set_rgb(c->cr, stroke, stroke_opacity);
		cairo_set_line_width(c->cr, width);
		cairo_stroke(c->cr);
	}
	cairo_new_path(c->cr);
}

void
chart_rect(struct chart *c, double x, double y, double w, double h, long fill,
    long stroke, double width, double stroke_opacity)
{
	if (c->fmt == CHART_SVG) {
		buf_printf(&c->svg, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		    "height=\"%.2f\"", x, y, w, h);
		svg_colour(&c->svg, "fill", fill);
		if (stroke != CHART_NONE) {
			svg_colour(&c->svg, "stroke", stroke);
			buf_printf(&c->svg, " stroke-width=\"%.2f\"", width);
			if (stroke_opacity < 1)
				buf_printf(&c->svg, " stroke-opacity=\"%.2f\"", stroke_opacity);
		}
		buf_adds(&c->svg, "/>\n");
		return;
	}
	cairo_rectangle(c->cr, x, y, w, h);
	if (stroke != CHART_NONE)
		cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_MITER);
	paint_path(c, fill, 1, stroke, stroke_opacity, width);
}

void
chart_line(struct chart *c, double x1, double y1, double x2, double y2, long rgb,
    double width, double dash)
{
	if (c->fmt == CHART_SVG) {
		buf_printf(&c->svg, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"",
		    x1, y1, x2, y2);
		svg_colour(&c->svg, "stroke", rgb);
		buf_printf(&c->svg, " stroke-width=\"%.2f\"", width);
		if (dash > 0)
			buf_printf(&c->svg, " stroke-dasharray=\"%.2f %.2f\"", dash, dash);
		buf_adds(&c->svg, "/>\n");
		return;
	}
	cairo_move_to(c->cr, x1, y1);
	cairo_line_to(c->cr, x2, y2);
	set_rgb(c->cr, rgb, 1);
	cairo_set_line_width(c->cr, width);
	cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_BUTT);
	if (dash > 0)
		cairo_set_dash(c->cr, &dash, 1, 0);
	cairo_stroke(c->cr);
	cairo_set_dash(c->cr, NULL, 0, 0);
}

void
chart_circle(struct chart *c, double x, double y, double r, long fill, double opacity,
    long stroke, double width)
{
	if (c->fmt == CHART_SVG) {
		buf_printf(&c->svg, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", x, y, r);
		svg_colour(&c->svg, "fill", fill);
		if (opacity < 1)
			buf_printf(&c->svg, " fill-opacity=\"%.2f\"", opacity);
		if (stroke != CHART_NONE) {
			svg_colour(&c->svg, "stroke", stroke);
			buf_printf(&c->svg, " stroke-width=\"%.2f\"", width);
		}
		buf_adds(&c->svg, "/>\n");
		return;
	}
	cairo_new_sub_path(c->cr);
	cairo_arc(c->cr, x, y, r, 0, 2 * M_PI);
	paint_path(c, fill, opacity, stroke, 1, width);
}

void
chart_wedge(struct chart *c, double x, double y, double r, double a0, double a1,
    long fill, long stroke, double width)
{
	double t0 = a0 * M_PI / 180.0, t1 = a1 * M_PI / 180.0;

	if (c->fmt == CHART_SVG) {
		if (a1 - a0 >= 360.0 - 1e-9) {
			chart_circle(c, x, y, r, fill, 1, stroke, width);
			return;
		}
		/* y grows downwards: an angle upwards is -sin */
		buf_printf(&c->svg, "<path d=\"M %.2f %.2f L %.2f %.2f A %.2f %.2f 0 %d 0 "
		    "%.2f %.2f Z\"", x, y, x + r * cos(t0), y - r * sin(t0), r, r,
		    a1 - a0 > 180.0 ? 1 : 0, x + r * cos(t1), y - r * sin(t1));
		svg_colour(&c->svg, "fill", fill);
		if (stroke != CHART_NONE) {
			svg_colour(&c->svg, "stroke", stroke);
			buf_printf(&c->svg, " stroke-width=\"%.2f\"", width);
		}
		buf_adds(&c->svg, "/>\n");
		return;
	}
	cairo_move_to(c->cr, x, y);
	cairo_arc_negative(c->cr, x, y, r, -t0, -t1);
	cairo_close_path(c->cr);
	paint_path(c, fill, 1, stroke, 1, width);
}

double
chart_text_width(struct chart *c, double size, int bold, const char *text)
{
	cairo_text_extents_t te;

	set_font(c->cr, size, bold);
	cairo_text_extents(c->cr, text, &te);
	return te.x_advance;
}

void
chart_text(struct chart *c, double x, double y, double size, int anchor, int bold,
    long rgb, const char *text)
{
	double w;

	if (c->fmt == CHART_SVG) {
		buf_printf(&c->svg, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\"%s%s",
		    x, y, size, anchor == CHART_MIDDLE ? " text-anchor=\"middle\"" :
		    anchor == CHART_END ? " text-anchor=\"end\"" : "",
		    bold ? " font-weight=\"bold\"" : "");
		if (rgb != 0)
			svg_colour(&c->svg, "fill", rgb);
		buf_adds(&c->svg, " xml:space=\"preserve\">");
		svg_esc(&c->svg, text);
		buf_adds(&c->svg, "</text>\n");
		return;
	}
	w = anchor == CHART_START ? 0 : chart_text_width(c, size, bold, text);
	set_font(c->cr, size, bold);
	set_rgb(c->cr, rgb, 1);
	cairo_move_to(c->cr, anchor == CHART_MIDDLE ? x - w / 2 : anchor == CHART_END ?
	    x - w : x, y);
	cairo_show_text(c->cr, text);
	cairo_new_path(c->cr);
}

void
chart_rotate(struct chart *c, double deg, double x, double y)
{
	c->rotated = 1;
	if (c->fmt == CHART_SVG) {
		buf_printf(&c->svg, "<g transform=\"rotate(%.0f %.2f %.2f)\">\n", deg, x, y);
		return;
	}
	cairo_save(c->cr);
	cairo_translate(c->cr, x, y);
	cairo_rotate(c->cr, deg * M_PI / 180.0);
	cairo_translate(c->cr, -x, -y);
}

void
chart_unrotate(struct chart *c)
{
	if (!c->rotated)
		return;
	c->rotated = 0;
	if (c->fmt == CHART_SVG)
		buf_adds(&c->svg, "</g>\n");
	else
		cairo_restore(c->cr);
}

void
chart_clip(struct chart *c, double x, double y, double w, double h)
{
	c->clipped = 1;
	if (c->fmt == CHART_SVG) {
		c->nclip++;
		buf_printf(&c->svg, "<clipPath id=\"clip%d\"><rect x=\"%.2f\" y=\"%.2f\" "
		    "width=\"%.2f\" height=\"%.2f\"/></clipPath>\n<g clip-path=\"url(#clip%d)\">\n",
		    c->nclip, x, y, w, h, c->nclip);
		return;
	}
	cairo_save(c->cr);
	cairo_rectangle(c->cr, x, y, w, h);
	cairo_clip(c->cr);
}

void
chart_unclip(struct chart *c)
{
	if (!c->clipped)
		return;
	c->clipped = 0;
	if (c->fmt == CHART_SVG)
		buf_adds(&c->svg, "</g>\n");
	else
		cairo_restore(c->cr);
}
