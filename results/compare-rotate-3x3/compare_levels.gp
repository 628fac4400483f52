# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_levels.csv (2026-12-03T12:27:19Z)
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 7.3146e-05 6
2 7.1639e-05 6
3 7.1579e-05 6
4 8.4733e-05 6
5 0.000129103 6
6 0.00029044 6
7 0.000844423 6
8 0.002569481 6
9 0.007391038 6
10 0.014000736 6
11 0.017470493 6
12 0.011254176 6
13 0.003248243 6
14 0.000308926 6
15 7.1447e-05 6
EOD
$v1 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.047049452 7
2 0.045419145 7
3 0.049981722 7
4 0.043720386 7
5 0.042826282 7
6 0.045856845 7
7 0.044121664 7
8 0.043515934 7
9 0.039776987 7
10 0.030589728 7
11 0.01348873 7
12 0.003617994 7
13 0.000380381 7
14 8.2809e-05 7
15 7.8104e-05 7
EOD
$v2 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 9.7364e-05 6
2 7.6053e-05 6
3 7.766e-05 6
4 8.8369e-05 6
5 0.000148443 6
6 0.000324988 6
7 0.000890023 6
8 0.00273039 6
9 0.007417621 6
10 0.01430781 6
11 0.013730737 7
12 0.003429432 7
13 0.000332332 7
14 7.9202e-05 7
15 7.4439e-05 7
EOD
$v3 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.000167976 6
2 0.000151864 6
3 0.000156074 6
4 0.00016376 6
5 0.000205916 6
6 0.000337779 6
7 0.00083262 6
8 0.002490273 6
9 0.006899334 6
10 0.01345651 6
11 0.009069042 7
12 0.001871607 7
13 0.000399913 7
14 0.000213296 7
15 0.000205014 7
EOD
$v4 << EOD
# serial: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 2.014e-06 6
2 1.712e-06 6
3 3.931e-06 6
4 9.95e-06 6
5 3.3779e-05 6
6 0.000124803 6
7 0.000515176 6
8 0.00179453 6
9 0.006073132 6
10 0.012595595 6
11 0.015640574 6
12 0.010270216 6
13 0.002758575 6
14 0.000194967 6
15 1.657e-06 6
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
