# view allocation-by-class: array classes decoded (byte[]), shares of the sampled weight
jfrtool view allocation-by-class recordings/leak-jdk17.jfr
