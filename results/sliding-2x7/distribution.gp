# made by: stategraph plot (from distribution.csv)
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 2 0
2 3 0
3 6 0
4 11 0
5 20 0
6 37 0
7 67 0
8 117 0
9 198 0
10 329 0
11 557 0
12 942 0
13 1575 0
14 2597 0
15 4241 0
16 6724 0
17 10535 0
18 16396 0
19 25515 0
20 39362 0
21 60532 0
22 92089 0
23 138969 0
24 207274 0
25 307725 0
26 453000 0
27 664240 0
28 964874 0
29 1392975 0
30 1992353 0
31 2832063 0
32 3988528 0
33 5586275 0
34 7756511 0
35 10698721 0
36 14621717 0
37 19840724 0
38 26676629 0
39 35605683 0
40 47083756 0
41 61775128 0
42 80280617 0
43 103437923 0
44 131954019 0
45 166799476 0
46 208715971 0
47 258659945 0
48 317168280 0
49 384949885 0
50 462104381 0
51 548743615 0
52 644208445 0
53 747728714 0
54 857838218 0
55 972826409 0
56 1090524780 0
57 1208492639 0
58 1324294771 0
59 1435166611 0
60 1538445477 0
61 1631318167 0
62 1711407623 0
63 1776313778 0
64 1824122769 0
65 1853119548 0
66 1862320864 0
67 1851238359 0
68 1820042135 0
69 1769350453 0
70 1700564453 0
71 1615557458 0
72 1516675570 0
73 1406502343 0
74 1288154452 0
75 1164716069 0
76 1039257451 0
77 914718314 0
78 793783415 0
79 678934877 0
80 571912137 0
81 474232181 0
82 386713150 0
83 309907682 0
84 243779436 0
85 188010782 0
86 142009132 0
87 104838064 0
88 75576381 0
89 52999438 0
90 36159280 0
91 23830790 0
92 15194456 0
93 9260117 0
94 5426429 0
95 3003444 0
96 1590744 0
97 784126 0
98 369889 0
99 159376 0
100 65645 0
101 23761 0
102 8357 0
103 2499 0
104 779 0
105 198 0
106 43 0
107 8 0
108 1 1
EOD
set title 'sliding-2x7: states by distance from the goal (43589145600 of 43589145600 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:108.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 108, graph 0 to 108, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 108\n1 antipode" at 108, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
