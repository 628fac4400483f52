# made by: stategraph plot (from the CSVs of: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown --threads 1,2 --repeat 1)
# data: compare_levels.csv
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.024982921 6
2 0.038663776 6
3 0.034722502 6
4 0.041868869 6
5 0.037853396 6
6 0.031793632 6
7 0.044076751 6
8 0.103838049 6
9 0.296019767 6
10 0.991984922 6
11 3.033864526 6
12 8.558761824 6
13 18.25549284 6
14 25.71989501 6
15 26.19009882 7
16 16.21482562 7
17 4.101303803 7
18 0.37152992 7
19 0.025492175 7
20 0.018928974 7
EOD
$v1 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.028822636 6
2 0.029197883 6
3 0.028546048 6
4 0.027884742 6
5 0.029599022 6
6 0.032879488 6
7 0.047271269 6
8 0.091825861 6
9 0.289363369 6
10 0.889901385 6
11 2.809484871 6
12 6.917842155 6
13 12.52540118 6
14 33.84036865 6
15 40.15891928 6
16 31.74337211 6
17 24.71066639 6
18 6.921505386 6
19 0.931623048 6
20 0.069651375 6
EOD
set title 'rotate 3x4: seconds per BFS level at 2 threads (median of 1)' noenhanced
set xlabel "BFS level (depth of the layer found)"
set ylabel "seconds for the level (log scale)"
set logscale y
set format y "%g"
set grid xtics ytics
set key top left opaque
plot $v0 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#1f77b4" title "hybrid", \
     $v1 using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb "#d62728" title "topdown", \
     NaN with points pt 6 ps 1.2 lc rgb "black" title "top-down level", \
     NaN with points pt 7 ps 1.2 lc rgb "black" title "bottom-up level"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
