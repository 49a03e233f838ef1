"""The Autos facade and the services that read folders, take the clock and start process pools."""
