# made by: stategraph plot (from distribution.csv)
# Redraw: cd to this folder, then `gnuplot distribution.gp` (writes distribution.svg and distribution.png).
if (!exists("out")) out = 'distribution'
set terminal svg size 900,540 dynamic enhanced font "Sans,12" background rgb "white"
set output out.".svg"
$data << EOD
# depth states antipodes(1 = the max depth)
0 1 0
1 2 0
2 4 0
3 9 0
4 20 0
5 37 0
6 63 0
7 122 0
8 232 0
9 431 0
10 781 0
11 1392 0
12 2494 0
13 4442 0
14 7854 0
15 13899 0
16 24215 0
17 41802 0
18 71167 0
19 119888 0
20 198363 0
21 323206 0
22 515778 0
23 811000 0
24 1248011 0
25 1885279 0
26 2782396 0
27 4009722 0
28 5621354 0
29 7647872 0
30 10065800 0
31 12760413 0
32 15570786 0
33 18171606 0
34 20299876 0
35 21587248 0
36 21841159 0
37 20906905 0
38 18899357 0
39 16058335 0
40 12772603 0
41 9515217 0
42 6583181 0
43 4242753 0
44 2503873 0
45 1350268 0
46 643245 0
47 270303 0
48 92311 0
49 27116 0
50 5390 0
51 1115 0
52 86 0
53 18 1
EOD
set title 'sliding-3x4: states by distance from the goal (239500800 of 239500800 reachable)' noenhanced
set xlabel "distance from the goal (moves)"
set ylabel "states at that distance"
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set key top left opaque
set xrange [-0.8:53.8]
set yrange [0:*]
set format y "%.0s%c"
set arrow 1 from 53, graph 0 to 53, graph 1 nohead dashtype 2 lw 1.5 lc rgb "#b22222" front
set style textbox opaque noborder
set label 1 "max depth 53\n18 antipodes" at 53, graph 0.93 right offset -1,0 textcolor rgb "#b22222" boxed front
plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb "#4682b4" title "states", \
     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb "#b22222" title "antipodes (at the max depth)"
set terminal pngcairo size 900,540 enhanced font "Sans,10" background rgb "white"
set output out.".png"
replot
unset output
