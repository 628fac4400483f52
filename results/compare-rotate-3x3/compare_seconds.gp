# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_summary.csv (2026-12-05T17:03:19Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
topdown 0.017500259 0.017428672 0.017687978 0.009438005 0.009223467 0.010843961
bottomup 0.129668788 0.129611102 0.130014771 0.067401148 0.065623199 0.07172221
hybrid 0.013290652 0.013224855 0.013314938 0.007097953 0.007021208 0.008222692
twobit 0.013863292 0.01377454 0.013964072 0.00719006 0.00718412 0.007958319
serial 0.022477955 0.022447881 0.023965873 0.022448472 0.022378297 0.023743874
reference 0.536907226 0.489109939 0.572496167 0.523739256 0.486285297 0.54509788
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
