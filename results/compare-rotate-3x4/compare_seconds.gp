# made by: stategraph plot (from the CSVs of: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3)
# data: compare.csv
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
hybrid 11.07349012 10.95199262 11.81899662 5.77885576 5.658656521 5.851680069
topdown 12.45052677 11.60483864 12.90188366 6.641269652 6.520439175 7.202056891
twobit 12.07053717 11.32278214 12.44642851 5.850684763 5.846985067 6.635134811
bottomup 101.0054882 94.04146049 105.3709231 49.49972681 47.43783708 49.75815203
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
