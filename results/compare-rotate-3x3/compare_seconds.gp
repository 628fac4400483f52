# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_summary.csv (2026-12-03T12:29:39Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
topdown 0.091037011 0.047575826 0.125315551 0.097638373 0.049958792 0.126675272
bottomup 0.792466543 0.521095937 0.962640507 0.785033938 0.675761748 1.048547561
hybrid 0.086678244 0.066418781 0.152502597 0.088539619 0.065858066 0.09657602
twobit 0.077013054 0.056990448 0.080882372 0.075153938 0.053486609 0.080093167
serial 0.106916903 0.085814034 0.111225725 0.102723183 0.061333452 0.132978548
reference 2.420478035 2.315208327 2.542104463 2.309721995 1.40218077 2.427331755
EOD
threads = "1 2"
set title 'rotate 3x3: 362880 states, seconds per full BFS (median of 5, bars min to max)' noenhanced
set ylabel "seconds (log scale)"
set xlabel "BFS variant"
set style data histogram
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.85 border -1
set datafile missing "NaN"
set logscale y
set format y "%g"
set grid ytics mytics
set key top right title "threads"
plot for [i=1:words(threads)] $data using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) title word(threads, i) lc i
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
