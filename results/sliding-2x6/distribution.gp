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
6 36 0
7 60 0
8 95 0
9 155 0
10 258 0
11 426 0
12 688 0
13 1106 0
14 1723 0
15 2615 0
16 3901 0
17 5885 0
18 8851 0
19 13205 0
20 19508 0
21 28593 0
22 41179 0
23 58899 0
24 83582 0
25 118109 0
26 165136 0
27 228596 0
28 312542 0
29 423797 0
30 568233 0
31 755727 0
32 994641 0
33 1296097 0
34 1667002 0
35 2119476 0
36 2660415 0
37 3300586 0
38 4038877 0
39 4877286 0
40 5804505 0
41 6810858 0
42 7864146 0
43 8929585 0
44 9958080 0
45 10902749 0
46 11716813 0
47 12356080 0
48 12791679 0
49 13002649 0
50 12981651 0
51 12723430 0
52 12245198 0
53 11572814 0
54 10738102 0
55 9772472 0
56 8720063 0
57 7623133 0
58 6526376 0
59 5459196 0
60 4457799 0
61 3546306 0
62 2749552 0
63 2068975 0
64 1510134 0
65 1064591 0
66 720002 0
67 464913 0
68 284204 0
69 165094 0
70 89649 0
71 45758 0
72 21471 0
73 9583 0
74 3829 0
75 1427 0
76 430 0
77 129 0
78 33 0
79 12 0
80 2 1
EOD
set title 'sliding-2x6: states by distance from the goal (239500800 of 239500800 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:80.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 80, graph 0 to 80, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 80\n2 antipodes" at 80, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
