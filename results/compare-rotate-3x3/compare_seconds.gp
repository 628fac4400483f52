# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_summary.csv (2026-12-05T18:38:27Z)
# Redraw: cd to this folder, then `gnuplot compare_seconds.gp` (writes compare_seconds.svg and compare_seconds.png).
if (!exists("out")) out = 'compare_seconds'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# variant, then median min max seconds for each thread count: 1 2
topdown 0.017502662 0.017358769 0.017766123 0.009289445 0.009264678 0.009495981
bottomup 0.130355587 0.129842616 0.132938459 0.066746947 0.065773312 0.078591404
hybrid 0.013378282 0.013310381 0.013418863 0.007169088 0.007062891 0.007929186
twobit 0.013977502 0.013783113 0.014309364 0.007301335 0.007221246 0.008277213
serial 0.023985472 0.022556271 0.025341325 0.023952032 0.022538145 0.028260551
reference 0.704209859 0.631564709 0.711688202 0.669072148 0.605730073 0.714619136
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
