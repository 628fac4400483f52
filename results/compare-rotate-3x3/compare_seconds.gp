# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_summary.csv (2026-12-03T12:27:19Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
topdown 0.059545067 0.043818159 0.061451919 0.057921571 0.044690153 0.060973838
bottomup 0.444425575 0.388609479 0.464928484 0.460289975 0.411236743 0.518581993
hybrid 0.042961449 0.037097106 0.050299709 0.044008162 0.037305937 0.051600254
twobit 0.037280229 0.035348281 0.041586782 0.036949533 0.035431109 0.042410574
serial 0.052136506 0.040308714 0.054869529 0.050837778 0.040513973 0.055038036
reference 1.146363743 1.098689207 1.212090502 1.183181094 1.083121594 1.247301765
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
