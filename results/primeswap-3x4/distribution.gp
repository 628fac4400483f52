# made by: stategraph analyze (primeswap-3x4, variant hybrid)
# data: distribution.csv
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 7 0
2 28 0
3 73 0
4 152 0
5 275 0
6 451 0
7 711 0
8 1054 0
9 1614 0
10 2426 0
11 3855 0
12 5771 0
13 8812 0
14 12555 0
15 18899 0
16 27395 0
17 42358 0
18 62284 0
19 97724 0
20 144883 0
21 225683 0
22 328316 0
23 499109 0
24 709140 0
25 1056753 0
26 1474936 0
27 2163000 0
28 2955517 0
29 4222627 0
30 5567748 0
31 7639184 0
32 9580659 0
33 12469563 0
34 14705224 0
35 17908801 0
36 19461943 0
37 21706922 0
38 21269631 0
39 21354644 0
40 18511428 0
41 16457475 0
42 12411209 0
43 9727689 0
44 6341730 0
45 4377918 0
46 2434328 0
47 1501999 0
48 722249 0
49 424863 0
50 186398 0
51 118558 0
52 54085 0
53 41502 0
54 20791 0
55 18339 0
56 9670 0
57 9078 0
58 4699 0
59 4526 0
60 2403 0
61 2347 0
62 1285 0
63 1177 0
64 620 0
65 520 0
66 311 0
67 254 0
68 165 0
69 140 0
70 104 0
71 79 0
72 46 0
73 26 0
74 13 1
EOD
set title 'primeswap-3x4: states by distance from the goal (239118752 of 479001600 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:74.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 74, graph 0 to 74, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 74\n13 antipodes" at 74, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
