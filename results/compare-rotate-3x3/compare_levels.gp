# made by: stategraph compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference --threads 1,2 --repeat 5
# data: compare_levels.csv (2026-12-05T18:38:27Z)
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.1306e-05 6
2 3.1117e-05 6
3 2.4066e-05 6
4 2.3094e-05 6
5 3.1086e-05 6
6 6.101e-05 6
7 0.000164304 6
8 0.000432972 6
9 0.001151629 6
10 0.00220337 6
11 0.002711604 6
12 0.001818389 6
13 0.000537858 6
14 6.4405e-05 6
15 2.0551e-05 6
EOD
$v1 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.006599343 7
2 0.006587706 7
3 0.006931536 7
4 0.00651613 7
5 0.006465905 7
6 0.006761643 7
7 0.006493295 7
8 0.006465264 7
9 0.006090578 7
10 0.004828986 7
11 0.002292592 7
12 0.000556356 7
13 6.07e-05 7
14 1.8888e-05 7
15 1.8187e-05 7
EOD
$v2 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.1867e-05 6
2 2.045e-05 6
3 2.0711e-05 6
4 2.4686e-05 6
5 3.6064e-05 6
6 6.741e-05 6
7 0.000175381 6
8 0.00043794 6
9 0.001133593 6
10 0.002241466 6
11 0.002310719 7
12 0.000550487 7
13 6.078e-05 7
14 1.9148e-05 7
15 1.7717e-05 7
EOD
$v3 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.4621e-05 6
2 2.1452e-05 6
3 2.688e-05 6
4 3.1146e-05 6
5 4.3965e-05 6
6 7.8837e-05 6
7 0.000170533 6
8 0.00043107 6
9 0.001180291 6
10 0.002317659 6
11 0.002244991 7
12 0.000541604 7
13 9.9488e-05 7
14 3.9739e-05 7
15 2.5007e-05 7
EOD
$v4 << EOD
# serial: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 5.91e-07 6
2 1.162e-06 6
3 2.323e-06 6
4 4.757e-06 6
5 1.5704e-05 6
6 5.6935e-05 6
7 0.00021594 6
8 0.000834468 6
9 0.002706436 6
10 0.0060652 6
11 0.007342866 6
12 0.005105997 6
13 0.001228052 6
14 9.7645e-05 6
15 7.81e-07 6
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
