# made by: stategraph plot (from the CSVs of: stategraph compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 --repeat 3)
# data: compare_levels.csv
# Redraw: cd to this folder, then `gnuplot compare_levels.gp` (writes compare_levels.svg and compare_levels.png).
if (!exists("out")) out = 'compare_levels'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$v0 << EOD
# hybrid: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.006080821 6
2 0.004994055 6
3 0.005106543 6
4 0.005056368 6
5 0.005580677 6
6 0.005847434 6
7 0.007473161 6
8 0.013242419 6
9 0.033294795 6
10 0.067294538 6
11 0.171260409 6
12 0.409331035 6
13 0.78282795 6
14 1.29244738 6
15 1.770261629 7
16 0.821562593 7
17 0.268959763 7
18 0.046961605 7
19 0.006848102 7
20 0.004828419 7
EOD
$v1 << EOD
# topdown: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.005832503 6
2 0.00568332 6
3 0.00590493 6
4 0.00593198 6
5 0.006152487 6
6 0.006650319 6
7 0.008780655 6
8 0.014492258 6
9 0.036115959 6
10 0.065422895 6
11 0.177950367 6
12 0.408818352 6
13 0.901114885 6
14 1.385303433 6
15 1.449868962 6
16 1.235786332 6
17 0.694539719 6
18 0.289799755 6
19 0.056282865 6
20 0.006770186 6
EOD
$v2 << EOD
# twobit: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 0.000274047 6
2 0.000255861 6
3 0.000187278 6
4 0.000291964 6
5 0.00055211 6
6 0.001539419 6
7 0.004246625 6
8 0.012209103 6
9 0.031258998 6
10 0.078928765 6
11 0.200050776 6
12 0.423941959 6
13 0.885738077 6
14 1.319344892 6
15 1.642895444 7
16 0.880199287 7
17 0.285447238 7
18 0.068679035 7
19 0.011815187 7
20 0.001511668 7
EOD
$v3 << EOD
# bottomup: depth, median seconds, point type (6 top-down, 7 bottom-up)
1 3.450716583 7
2 3.238423376 7
3 3.210883732 7
4 3.226032471 7
5 3.274748861 7
6 3.204146245 7
7 3.211472828 7
8 3.188648723 7
9 3.263511261 7
10 3.245575514 7
11 3.232189791 7
12 3.303166894 7
13 3.164035906 7
14 2.725554499 7
15 1.901058926 7
16 0.941725467 7
17 0.264443939 7
18 0.047189333 7
19 0.007033688 7
20 0.005652174 7
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
