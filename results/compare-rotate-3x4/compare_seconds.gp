# made by: stategraph plot (from the CSVs of: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown --threads 1,2 --repeat 1)
# data: compare.csv
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
hybrid 178.0112235 178.0112235 178.0112235 104.3012419 104.3012419 104.3012419
topdown 154.3848185 154.3848185 154.3848185 162.2676977 162.2676977 162.2676977
EOD
threads = "1 2"
set title 'rotate 3x4: 479001600 states, seconds per full BFS (median of 1, bars min to max)' noenhanced
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
