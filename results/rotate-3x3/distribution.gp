# made by: stategraph analyze (rotate-3x3, variant hybrid)
# data: distribution.csv
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 4 0
2 16 0
3 64 0
4 250 0
5 960 0
6 3553 0
7 12324 0
8 37308 0
9 84234 0
10 116769 0
11 82197 0
12 23529 0
13 1656 0
14 14 0
15 1 1
EOD
set title 'rotate-3x3: states by distance from the goal (362880 of 362880 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:15.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 15, graph 0 to 15, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 15\n1 antipode" at 15, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
