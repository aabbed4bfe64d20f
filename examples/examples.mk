# The README's example (built and run by make check) and the distributed heat equation.
check_PROGRAMS += examples/readme
examples_readme_LDADD = lib/libusmarr.la
if HAVE_MPI
check_PROGRAMS += examples/heat_mpi
examples_heat_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_heat_mpi_LDADD = lib/libusmarr-mpi.la lib/libusmarr.la $(MPI_LIBS)
endif
