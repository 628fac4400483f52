# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_levels.csv (2026-12-05T17:03:19Z)
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.1127e-05 6
2 2.8743e-05 6
3 2.048e-05 6
4 2.3826e-05 6
5 3.349e-05 6
6 6.053e-05 6
7 0.000165326 6
8 0.0004313 6
9 0.001133802 6
10 0.002228787 6
11 0.002901045 6
12 0.001814212 6
13 0.00053928 6
14 6.5057e-05 6
15 2.025e-05 6
EOD
$v1 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.006549749 7
2 0.006487758 7
3 0.006563429 7
4 0.006602488 7
5 0.006495889 7
6 0.006534586 7
7 0.006464883 7
8 0.006440287 7
9 0.006109967 7
10 0.004817599 7
11 0.002255628 7
12 0.000560892 7
13 6.071e-05 7
14 1.8377e-05 7
15 1.7336e-05 7
EOD
$v2 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.1367e-05 6
2 1.8157e-05 6
3 2.2062e-05 6
4 2.5548e-05 6
5 3.387e-05 6
6 6.4936e-05 6
7 0.000165285 6
8 0.000431681 6
9 0.00113191 6
10 0.002221105 6
11 0.002280874 7
12 0.000542906 7
13 6.054e-05 7
14 1.8868e-05 7
15 1.8127e-05 7
EOD
$v3 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.8557e-05 6
2 2.1342e-05 6
3 2.6059e-05 6
4 3.0836e-05 6
5 4.1912e-05 6
6 7.1256e-05 6
7 0.000165465 6
8 0.000429197 6
9 0.00116557 6
10 0.002300925 6
11 0.002213084 7
12 0.000539481 7
13 9.8155e-05 7
14 3.8327e-05 7
15 2.4206e-05 7
EOD
$v4 << EOD
# serial: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 5.11e-07 6
2 6.01e-07 6
3 1.942e-06 6
4 4.326e-06 6
5 1.5493e-05 6
6 5.7295e-05 6
7 0.000216822 6
8 0.000813016 6
9 0.00266167 6
10 0.005732006 6
11 0.007063812 6
12 0.004552565 6
13 0.001241893 6
14 8.5126e-05 6
15 7.72e-07 6
EOD
set title 'rotate 3x3: seconds per BFS level at 2 threads (median of 5)' noenhanced
set xlabel "BFS level (depth of the layer found)"
set ylabel "seconds for the level (log scale)"
set logscale y
set format y "%g"
set grid xtics ytics
set key top left opaque
plot $v0 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#1f77b4" title "topdown", \
     $v1 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#d62728" title "bottomup", \
     $v2 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#2ca02c" title "hybrid", \
     $v3 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#ff7f0e" title "twobit", \
     $v4 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#9467bd" title "serial", \
     NaN with points pt 6 ps 1.2 lc rgb "black" title "top-down level", \
     NaN with points pt 7 ps 1.2 lc rgb "black" title "bottom-up level"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
