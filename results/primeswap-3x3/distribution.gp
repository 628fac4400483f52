# made by: stategraph analyze (primeswap-3x3, variant hybrid)
# data: distribution.csv
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 8 0
2 19 0
3 25 0
4 38 0
5 40 0
6 64 0
7 89 0
8 135 0
9 168 0
10 239 0
11 295 0
12 469 0
13 672 0
14 1021 0
15 1259 0
16 1621 0
17 1767 0
18 2231 0
19 2334 0
20 2768 0
21 2698 0
22 3232 0
23 3202 0
24 3759 0
25 3675 0
26 4167 0
27 3949 0
28 4462 0
29 4379 0
30 5194 0
31 5176 0
32 6111 0
33 5942 0
34 6893 0
35 6707 0
36 7931 0
37 7822 0
38 8900 0
39 8020 0
40 8187 0
41 6886 0
42 7163 0
43 6127 0
44 6187 0
45 5101 0
46 4931 0
47 3764 0
48 3361 0
49 2255 0
50 1971 0
51 1339 0
52 1108 0
53 654 0
54 509 0
55 279 0
56 212 0
57 118 0
58 88 0
59 46 0
60 37 0
61 18 0
62 14 0
63 8 0
64 8 0
65 5 0
66 6 0
67 5 0
68 3 1
EOD
set title 'primeswap-3x3: states by distance from the goal (177872 of 362880 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:68.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 68, graph 0 to 68, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 68\n3 antipodes" at 68, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
