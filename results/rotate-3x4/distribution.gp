# made by: stategraph plot (from distribution.csv)
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 6 0
2 32 0
3 168 0
4 866 0
5 4415 0
6 22006 0
7 105959 0
8 481345 0
9 1984613 0
10 7142039 0
11 21634977 0
12 52434484 0
13 95214788 0
14 121861470 0
15 104236732 0
16 55680498 0
17 16288523 0
18 1878013 0
19 30619 0
20 46 1
EOD
set title 'rotate-3x4: states by distance from the goal (479001600 of 479001600 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:20.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 20, graph 0 to 20, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 20\n46 antipodes" at 20, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
