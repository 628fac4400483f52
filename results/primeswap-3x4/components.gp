# Component plots of primeswap 3x4 from components.csv and component_sizes.csv
# (gnuplot components.gp): the size histogram and size versus diameter (bounds as
# error bars where the diameter is not exact: the two giants, [lower, upper]).
set datafile separator ','
set terminal svg size 900,600 dynamic background rgb 'white'
set output 'component_sizes.svg'
set title 'primeswap 3x4: component sizes (146,498 components)'
set logscale xy
set xlabel 'states in the component'
set ylabel 'components of that size'
set grid
set key top left
plot 'component_sizes.csv' every ::1 using 1:2 with impulses lw 3 title 'count', '' every ::1 using 1:2 with points pt 7 notitle
set output 'size_vs_diameter.svg'
set title 'primeswap 3x4: component size versus diameter (giants: bounds)'
set logscale x
unset logscale y
set xlabel 'states in the component'
set ylabel 'diameter'
plot 'components.csv' every ::1 using 2:6:6:7 with yerrorbars pt 7 ps 0.6 title 'diameter (lower..upper)'
set terminal pngcairo size 900,600 background rgb 'white'
set output 'size_vs_diameter.png'
replot
set output 'component_sizes.png'
set logscale xy
set title 'primeswap 3x4: component sizes (146,498 components)'
set xlabel 'states in the component'
set ylabel 'components of that size'
plot 'component_sizes.csv' every ::1 using 1:2 with impulses lw 3 title 'count', '' every ::1 using 1:2 with points pt 7 notitle
