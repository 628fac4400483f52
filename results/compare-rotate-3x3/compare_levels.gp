# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_levels.csv (2026-12-03T12:29:39Z)
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 7.88e-05 6
2 7.3274e-05 6
3 7.1595e-05 6
4 8.3985e-05 6
5 0.000126288 6
6 0.000284004 6
7 0.000852204 6
8 0.005986189 6
9 0.009652604 6
10 0.02554066 6
11 0.028521669 6
12 0.01828862 6
13 0.00341715 6
14 0.000323411 6
15 7.2843e-05 6
EOD
$v1 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.085113187 7
2 0.090765053 7
3 0.085388836 7
4 0.077124391 7
5 0.087224224 7
6 0.078952719 7
7 0.073192583 7
8 0.083219739 7
9 0.071276718 7
10 0.062785504 7
11 0.027368321 7
12 0.007201078 7
13 0.000344161 7
14 0.000100019 7
15 8.8967e-05 7
EOD
$v2 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 7.8946e-05 6
2 7.4748e-05 6
3 7.6044e-05 6
4 9.2646e-05 6
5 0.000141852 6
6 0.000300267 6
7 0.000905696 6
8 0.002688109 6
9 0.01674366 6
10 0.030813519 6
11 0.025764056 7
12 0.007220947 7
13 0.000356964 7
14 8.5292e-05 7
15 8.1544e-05 7
EOD
$v3 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.000169812 6
2 0.000159934 6
3 0.000164344 6
4 0.000175228 6
5 0.000199698 6
6 0.000341542 6
7 0.000860511 6
8 0.006672974 6
9 0.015352275 6
10 0.028041791 6
11 0.016251263 7
12 0.00202054 7
13 0.000413078 7
14 0.000223873 7
15 0.0002069 7
EOD
$v4 << EOD
# serial: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 1.875e-06 6
2 1.851e-06 6
3 3.79e-06 6
4 1.074e-05 6
5 3.4434e-05 6
6 0.000127196 6
7 0.000496504 6
8 0.001975266 6
9 0.013976021 6
10 0.025369017 6
11 0.032556957 6
12 0.020933846 6
13 0.006928078 6
14 0.000198262 6
15 1.94e-06 6
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
