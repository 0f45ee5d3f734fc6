"""The parts of a class's view, one module each; :mod:`ui.teacher.registry` lists them."""
