# made by: stategraph compare --rule sliding --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3
# data: compare_summary.csv (2026-12-06T11:10:20Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
hybrid 3.848772513 3.579147551 4.027759681 1.995993514 1.986555883 2.080062187
topdown 3.547492015 3.384838117 3.569255198 2.101561803 1.905715118 2.148297477
twobit 4.523593539 4.50005098 5.059294603 2.291197338 2.184404334 2.635701651
bottomup 57.17141524 56.53908763 60.25693323 30.32822669 27.94399471 31.24505646
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
