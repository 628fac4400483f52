# made by: stategraph compare --rule sliding --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3
# data: compare_summary.csv (2026-12-06T04:08:55Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
hybrid 5.065595177 5.026690023 5.286568936 2.639052406 2.583457318 2.977515703
topdown 5.167239162 5.147459441 5.339123489 2.677542992 2.615989098 2.733102682
twobit 5.597942869 5.567129274 6.324995126 3.284134698 2.823126922 3.35012128
bottomup 52.25010208 51.65790939 61.18522684 31.11208928 28.20983039 32.78430144
EOD
threads = "1 2"
set title 'sliding 3x4: 239500800 states, seconds per full BFS (median of 3, bars min to max)' noenhanced
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
