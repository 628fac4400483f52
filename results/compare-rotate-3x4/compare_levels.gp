# made by: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3
# data: compare_levels.csv (2026-12-06T04:14:33Z)
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.003962675 6
2 0.0037127 6
3 0.003762035 6
4 0.003360081 6
5 0.003616197 6
6 0.004385659 6
7 0.007011435 6
8 0.015689285 6
9 0.04465414 6
10 0.101937975 6
11 0.288556493 6
12 0.685572244 6
13 1.296254408 6
14 1.873193053 6
15 2.220358396 7
16 1.082162338 7
17 0.359040986 7
18 0.065931347 7
19 0.007546781 7
20 0.003681591 7
EOD
$v1 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.004923841 6
2 0.004477172 6
3 0.004576662 6
4 0.004526886 6
5 0.004682743 6
6 0.005225794 6
7 0.007784434 6
8 0.017236673 6
9 0.047834429 6
10 0.112864215 6
11 0.312775486 6
12 0.755902003 6
13 1.355883677 6
14 2.074614561 6
15 2.325521015 6
16 1.979694894 6
17 1.121814419 6
18 0.37909036 6
19 0.070521214 6
20 0.007105233 6
EOD
$v2 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.000319636 6
2 0.000147611 6
3 0.0002266 6
4 0.000237361 6
5 0.000648091 6
6 0.001651726 6
7 0.005600336 6
8 0.016828348 6
9 0.047995325 6
10 0.142096077 6
11 0.371117901 6
12 0.79825832 6
13 1.688708128 6
14 2.343936897 6
15 2.634098308 7
16 1.36158813 7
17 0.493964893 7
18 0.131803822 7
19 0.017289343 7
20 0.002350383 7
EOD
$v3 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 4.057339431 7
2 4.029324478 7
3 4.186079994 7
4 3.623967337 7
5 3.741171271 7
6 3.444751878 7
7 3.272453674 7
8 3.323654719 7
9 3.368239546 7
10 3.427417489 7
11 3.575016105 7
12 4.187437884 7
13 3.495267619 7
14 3.001089221 7
15 2.065970497 7
16 1.107420674 7
17 0.387931911 7
18 0.067761442 7
19 0.006878753 7
20 0.004200938 7
EOD
set title 'rotate 3x4: seconds per BFS level at 2 threads (median of 3)' noenhanced
set xlabel "BFS level (depth of the layer found)"
set ylabel "seconds for the level (log scale)"
set logscale y
set format y "%g"
set grid xtics ytics
set key top left opaque
plot $v0 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#1f77b4" title "hybrid", \
     $v1 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#d62728" title "topdown", \
     $v2 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#2ca02c" title "twobit", \
     $v3 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#ff7f0e" title "bottomup", \
     NaN with points pt 6 ps 1.2 lc rgb "black" title "top-down level", \
     NaN with points pt 7 ps 1.2 lc rgb "black" title "bottom-up level"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
