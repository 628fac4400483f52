# made by: stategraph analyze (rotate-both-3x4, variant hybrid)
# data: distribution.csv
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 12 0
2 110 0
3 970 0
4 8308 0
5 68065 0
6 507557 0
7 3195614 0
8 15896449 0
9 55414649 0
10 117942536 0
11 144258213 0
12 98738406 0
13 36151538 0
14 6401002 0
15 411717 0
16 6430 0
17 22 0
18 1 1
EOD
set title 'rotate-both-3x4: states by distance from the goal (479001600 of 479001600 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:18.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 18, graph 0 to 18, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 18\n1 antipode" at 18, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
