"""The seed's exercise: backward(out), graded on its expressions and the graphs that tell orders apart."""
