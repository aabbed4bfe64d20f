/* `--plot FILE`: the ratios of a run as horizontal bars (log scale), each case's bar as a
 * black mark, green where met and red where missed.  Drawn by gnuplot where it is
 * installed (Debian: gnuplot-nox), else by Python's matplotlib; the script goes to the
 * plotter's standard input. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum format { FORMAT_SVG, FORMAT_PNG };
enum plotter { PLOTTER_NONE, PLOTTER_GNUPLOT, PLOTTER_MATPLOTLIB };

static const char *python(void)
{
    const char *p = getenv("PYTHON_NUMPY");
    return p && *p ? p : "/usr/bin/python3";
}

static bool format_of(const char *file, enum format *format)
{
    size_t n = strlen(file);
    if (n > 4 && !strcmp(file + n - 4, ".svg"))
        *format = FORMAT_SVG;
    else if (n > 4 && !strcmp(file + n - 4, ".png"))
        *format = FORMAT_PNG;
    else
        return false;
    return true;
}

/* gnuplot, else matplotlib; $USMARR_BENCH_PLOTTER=gnuplot|matplotlib insists on one. */
static enum plotter find_plotter(void)
{
    const char *want = getenv("USMARR_BENCH_PLOTTER");
    bool any = !want || !*want;
    if ((any || !strcmp(want, "gnuplot")) && system("command -v gnuplot >/dev/null 2>&1") == 0)
        return PLOTTER_GNUPLOT;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -c 'import matplotlib' >/dev/null 2>&1", python());
    if ((any || !strcmp(want, "matplotlib")) && system(cmd) == 0)
        return PLOTTER_MATPLOTLIB;
    return PLOTTER_NONE;
}

int bench_plot_check(const char *file)
{
    enum format format;
    if (!format_of(file, &format)) {
        fprintf(stderr, "bench: --plot %s: the file must end in .svg or .png\n", file);
        return 1;
    }
    if (find_plotter() == PLOTTER_NONE) {
        fprintf(stderr, "bench: --plot needs gnuplot (Debian: apt-get install gnuplot-nox) or Python's matplotlib "
                        "for %s (Debian: apt-get install python3-matplotlib); %s\n",
                python(), getenv("USMARR_BENCH_PLOTTER") ? "USMARR_BENCH_PLOTTER names one that is not installed"
                                                         : "neither is installed");
        return 1;
    }
    return 0;
}

/* `s` as a gnuplot single-quoted string (a quote is doubled) or a Python string literal. */
static void put_quoted(FILE *f, const char *s, bool for_python)
{
    fputc('\'', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\'')
            fputs(for_python ? "\\'" : "''", f);
        else if (for_python && (*p == '\\' || *p < 0x20 || *p >= 0x7f))
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

static const char *bar_sign(const struct bench_outcome *o) { return o->bar_kind == BENCH_AT_LEAST ? ">=" : "<="; }

static void gnuplot_script(FILE *f, const char *file, enum format format, const char *title,
                           const struct bench_outcome *o, int n)
{
    int height = 160 + 26 * n;
    if (format == FORMAT_SVG)
        fprintf(f, "set terminal svg size 900,%d dynamic font 'sans,11' background '#ffffff'\n", height);
    else
        fprintf(f,
                "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 900,%d font 'sans,10' } "
                "else { set terminal png size 900,%d }\n",
                height, height);
    fputs("set output ", f);
    put_quoted(f, file, false);
    fputs("\nset title ", f);
    put_quoted(f, title, false);
    fputs(" noenhanced\n", f);
    /* Log scale: every bar starts a little left of the smallest value drawn. */
    double low = 1;
    for (int i = 0; i < n; i++) {
        low = o[i].ratio > 0 && o[i].ratio < low ? o[i].ratio : low;
        low = o[i].bar > 0 && o[i].bar < low ? o[i].bar : low;
    }
    low /= 2;
    fprintf(f, "set logscale x\nset xrange [%g:*]\nset yrange [%d:-1]\nset ytics noenhanced\n"
               "set xlabel 'ratio (log scale); the mark is the case''s bar'\nset grid xtics\n"
               "set key outside bottom center horizontal\nset style fill solid 0.85 noborder\n",
            low, n);
    fputs("$data << EOD\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%d \"%s %s %g\" %.9g %.9g %d\n", i, o[i].name, bar_sign(&o[i]), o[i].bar,
                o[i].ratio > 0 ? o[i].ratio : low, o[i].bar, o[i].met ? 1 : 0);
    fputs("EOD\n", f);
    fprintf(f,
            "plot $data using ($5 == 1 ? %g : 1/0):1:(%g):3:($1-0.35):($1+0.35):ytic(2) with boxxyerror "
            "lc rgb '#2ca02c' title 'met', \\\n"
            "     $data using ($5 == 0 ? %g : 1/0):1:(%g):3:($1-0.35):($1+0.35) with boxxyerror lc rgb '#d62728' "
            "title 'missed', \\\n"
            "     $data using 4:1 with points pt 5 ps 0.9 lc rgb '#000000' title 'bar'\n",
            low, low, low, low);
}

static void matplotlib_script(FILE *f, const char *file, const char *title, const struct bench_outcome *o, int n)
{
    fputs("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nrows = [\n", f);
    for (int i = 0; i < n; i++) {
        fputs("    (", f);
        put_quoted(f, o[i].name, true);
        fprintf(f, ", %.9g, %.9g, '%s', %s),\n", o[i].ratio, o[i].bar, bar_sign(&o[i]), o[i].met ? "True" : "False");
    }
    fputs("]\ntitle = ", f);
    put_quoted(f, title, true);
    fputs("\nfile = ", f);
    put_quoted(f, file, true);
    fputs("\ny = list(range(len(rows)))\n"
          "fig, ax = plt.subplots(figsize=(9, 1.2 + 0.3 * len(rows)))\n"
          "ax.set_xscale('log')\n"
          "ax.barh(y, [max(r[1], 1e-9) for r in rows], color=['#2ca02c' if r[4] else '#d62728' for r in rows])\n"
          "ax.scatter([r[2] for r in rows], y, marker='s', color='black', zorder=3)\n"
          "ax.set_yticks(y)\n"
          "ax.set_yticklabels(['%s %s %g' % (r[0], r[3], r[2]) for r in rows])\n"
          "ax.invert_yaxis()\n"
          "ax.set_xlabel(\"ratio (log scale); green: met, red: missed; the square is the case's bar\")\n"
          "ax.set_title(title)\n"
          "ax.grid(axis='x', which='both', alpha=0.3)\n"
          "fig.tight_layout()\n"
          "fig.savefig(file)\n",
          f);
}

int bench_plot(const char *file, const char *title, const struct bench_outcome *outcomes, int n)
{
    enum format format;
    enum plotter plotter = find_plotter();
    if (!format_of(file, &format) || plotter == PLOTTER_NONE)
        return bench_plot_check(file);
    if (n == 0) {
        fprintf(stderr, "bench: --plot %s: no case produced a ratio\n", file);
        return 1;
    }
    char cmd[512];
    if (plotter == PLOTTER_GNUPLOT)
        snprintf(cmd, sizeof cmd, "gnuplot");
    else
        snprintf(cmd, sizeof cmd, "%s -", python());
    FILE *f = popen(cmd, "w");
    if (!f) {
        fprintf(stderr, "bench: --plot: cannot run %s\n", cmd);
        return 1;
    }
    if (plotter == PLOTTER_GNUPLOT)
        gnuplot_script(f, file, format, title, outcomes, n);
    else
        matplotlib_script(f, file, title, outcomes, n);
    int status = pclose(f);
    if (status != 0) {
        fprintf(stderr, "bench: --plot: %s failed (status %d); %s was not written\n",
                plotter == PLOTTER_GNUPLOT ? "gnuplot" : "matplotlib", status, file);
        return 1;
    }
    return 0;
}
