# made by: stategraph analyze (sliding-3x3, variant hybrid)
# data: distribution.csv
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 2 0
2 4 0
3 8 0
4 16 0
5 20 0
6 39 0
7 62 0
8 116 0
9 152 0
10 286 0
11 396 0
12 748 0
13 1024 0
14 1893 0
15 2512 0
16 4485 0
17 5638 0
18 9529 0
19 10878 0
20 16993 0
21 17110 0
22 23952 0
23 20224 0
24 24047 0
25 15578 0
26 14560 0
27 6274 0
28 3910 0
29 760 0
30 221 0
31 2 1
EOD
set title 'sliding-3x3: states by distance from the goal (181440 of 181440 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:31.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 31, graph 0 to 31, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 31\n2 antipodes" at 31, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
