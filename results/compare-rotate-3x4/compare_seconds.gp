# made by: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3
# data: compare_summary.csv (2026-12-06T04:14:33Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
hybrid 16.37004465 15.19186253 20.63735646 8.070037805 7.733820583 8.992583443
topdown 19.3945235 18.43637983 22.53322886 10.82019956 8.870322273 11.10173008
twobit 19.19831406 16.98066121 20.5910274 10.15682583 8.843855472 10.25617595
bottomup 149.6932452 105.8356723 150.8071333 55.31789218 53.14493047 60.55187789
EOD
threads = "1 2"
set title 'rotate 3x4: 479001600 states, seconds per full BFS (median of 3, bars min to max)' noenhanced
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
